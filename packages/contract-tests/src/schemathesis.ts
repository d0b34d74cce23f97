// Schemathesis against the server: every operation of each version (with its Service-Version) and of the sandbox
// document, with all of its checks (schemathesis.toml says where an expectation differs, and why). Each run writes its
// NDJSON event stream, JSON summary and JUnit file into the report directory; the testcases are merged from the event
// stream (every case's checks, with the request and answer of each failure), not re-parsed from text.
import { spawn } from 'node:child_process';
import { createReadStream } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { type DocumentName, distDir } from '@aggregation/openapi/contract';
import { CURRENT_VERSION, VERSIONS } from '@aggregation/openapi/versions';
import pMap from 'p-map';
import { packageDir } from './python.ts';
import { Collector } from './report/collect.ts';
import { curlOf, excerpt } from './report/curl.ts';
import type { Failure } from './report/types.ts';
import { emptyOutcome, type SuiteContext, type SuiteOutcome } from './suite.ts';

/** The seed of a default run: fixed, so that a pull request's run is reproducible; `--seed random` explores. */
export const defaultSeeds = '20201012';

/** `1,2,random` to seeds; `random` draws one (printed with the results, so that a failure can be replayed). */
export function parseSeeds(value: string, draw: () => number = () => Math.floor(Math.random() * 2 ** 31)): number[] {
  return value.split(',').map((part) => {
    const text = part.trim();
    if (text === 'random') return draw();
    if (!/^\d+$/.test(text)) throw new Error(`--seed takes numbers or "random", comma-separated; got "${text}"`);
    return Number(text);
  });
}

export type Run = {
  name: string;
  document: DocumentName;
  /** Only these operations (by operationId); otherwise all but `exclude`. */
  include?: string[];
  exclude?: string[];
  token: string;
  accountId: string;
  version?: string;
  seed: number;
  phases: string;
};

/** Removing an account or the enrollment revokes what later cases need, so those operations run on their own. */
const removals = ['deleteAccount', 'deleteAccounts'];
/** Answers that stream until the client leaves: every generated case would end in the request timeout. */
const streams = ['streamSandboxLogs'];

/**
 * The examples and coverage phases are derived from the description, nearly the same whatever the seed: the first
 * seed runs every phase, the others only the phases a seed steers (random inputs and sequences of calls). --quick runs
 * the two derived phases only.
 */
const allPhases = 'examples,coverage,fuzzing,stateful';
const seededPhases = 'fuzzing,stateful';
const quickPhases = 'examples,coverage';

async function accountFor(baseUrl: string, token: string, version: string): Promise<string> {
  const response = await fetch(`${baseUrl}/accounts`, { headers: { authorization: `Basic ${btoa(`${token}:`)}`, 'service-version': version } });
  if (!response.ok) throw new Error(`GET /accounts answered ${response.status} for the Schemathesis token`);
  const accounts = (await response.json()) as { id: string; links: { payments?: string } }[];
  const account = accounts.find((a) => a.links.payments) ?? accounts[0];
  if (!account) throw new Error('the token has no accounts');
  return account.id;
}

/** The runs of one seed: fresh enrollments for each, the removals (first seed, not --quick) on enrollments of their own. */
export async function plannedRuns(ctx: SuiteContext, seed: number, first: boolean): Promise<{ runs: Run[]; skipped: string[] }> {
  const { sandbox, options } = ctx;
  const phases = options.quick ? quickPhases : first ? allPhases : seededPhases;
  const runs: Run[] = [];
  const skipped: string[] = [];
  // --quick: the current version only; the older one shares its handlers, and the sandbox document is no integrator's.
  const versions = options.quick ? [CURRENT_VERSION] : VERSIONS;
  if (options.quick && first) skipped.push(`${VERSIONS.filter((v) => v !== CURRENT_VERSION).join(', ')} and the sandbox document: not with --quick`);
  for (const version of versions) {
    const token = await sandbox.token();
    const common = { document: version, version, seed, phases } as const;
    runs.push({ ...common, name: version, exclude: [...removals], token, accountId: await accountFor(ctx.baseUrl, token, version) });
    if (!first) continue;
    if (!sandbox.enrolls) {
      skipped.push(`${version} ${removals.join(', ')}: they would revoke the given token (fresh sandbox users need the sandbox control API)`);
    } else if (options.quick) {
      skipped.push(`${version} ${removals.join(', ')}: not with --quick`);
    } else {
      const removing = await sandbox.enroll('username');
      runs.push({
        ...common,
        name: `${version}-deleteAccount`,
        include: ['listAccounts', 'deleteAccount'],
        token: removing.token,
        accountId: removing.accounts[0]!.id,
      });
      const revoking = await sandbox.enroll('username');
      runs.push({
        ...common,
        name: `${version}-deleteAccounts`,
        include: ['deleteAccounts'],
        token: revoking.token,
        accountId: revoking.accounts[0]!.id,
      });
    }
  }
  if (options.quick) return { runs, skipped };
  if (sandbox.mode === 'own-application') {
    const enrolled = await sandbox.enroll('username');
    const savings = enrolled.accounts.find((a) => a.subtype === 'savings') ?? enrolled.accounts[0]!;
    runs.push({ name: 'sandbox', document: 'sandbox', seed, phases, exclude: streams, token: enrolled.token, accountId: savings.id });
    if (first) skipped.push(`sandbox ${streams.join(', ')}: a stream that stays open until the reader leaves (the proxy journey reads it)`);
  } else if (first) {
    skipped.push("sandbox document: with --token it would change the token's application's webhook settings and secrets");
  }
  return { runs, skipped };
}

const fileName = (run: Run) => `${run.name}-seed${run.seed}`;

function argsFor(run: Run, ctx: SuiteContext, dir: string): string[] {
  const { options } = ctx;
  const base = join(dir, fileName(run));
  const args = ['-m', 'schemathesis.cli', '--config-file', join(packageDir, 'schemathesis.toml'), 'run', join(distDir, `${run.document}.json`)];
  args.push('--url', ctx.baseUrl, '--auth', `${run.token}:`);
  // Each document describes one version; the header keeps the answers in it (the server's default could differ).
  if (run.version) args.push('--header', `Service-Version: ${run.version}`);
  args.push('--checks', 'all', '--max-examples', String(options.maxExamples), '--seed', String(run.seed), '--phases', run.phases);
  // A generous request timeout: a server on a busy machine (or far away) is slow, not broken.
  args.push('--workers', String(options.workers), '--request-timeout', '30', '--generation-database', 'none', '--no-color');
  // The run's own sandbox tokens are shown, so that every curl line works as printed; a token given with --token is not.
  args.push('--output-sanitize', String(ctx.sandbox.mode === 'token'));
  args.push('--report', 'ndjson,json,junit', '--report-dir', dir);
  args.push('--report-ndjson-path', `${base}.ndjson`, '--report-json-path', `${base}.json`, '--report-junit-path', `${base}.junit.xml`);
  for (const id of run.include ?? []) args.push('--include-operation-id', id);
  for (const id of run.exclude ?? []) args.push('--exclude-operation-id', id);
  return args;
}

/** Runs one Schemathesis command; answers its exit code and everything it printed. */
function execute(
  python: string,
  args: string[],
  env: NodeJS.ProcessEnv,
  cwd: string,
  timeoutMs: number,
): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(python, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const timer = setTimeout(() => {
      output += `\n(stopped after ${timeoutMs / 1000} s)`;
      child.kill('SIGKILL');
    }, timeoutMs);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}

/** What the NDJSON event stream holds for one scenario (the fields read here). */
type Recorded = {
  cases: Record<string, { value: { method: string; path: string } }>;
  checks?: Record<string, { name: string; status: string; failure_info?: { failure: { code: string; title: string; message: string } } }[]>;
  interactions: Record<
    string,
    {
      request: { method: string; uri: string; headers?: Record<string, string[]>; body?: { $base64?: string } };
      response?: { status_code: number; headers?: Record<string, string[]>; content?: { $base64?: string } };
    }
  >;
};

const decode = (value: { $base64?: string } | undefined) => (value?.$base64 ? Buffer.from(value.$base64, 'base64').toString('utf8') : '');
const flat = (headers: Record<string, string[]> | undefined) => Object.fromEntries(Object.entries(headers ?? {}).map(([k, v]) => [k, v.join(', ')]));

/** A failed check of one case, with its request, the start of the answer and a curl line. */
function failureOf(
  run: Run,
  check: NonNullable<NonNullable<Recorded['checks']>[string][number]['failure_info']>,
  interaction: Recorded['interactions'][string] | undefined,
  sanitized: boolean,
): Failure {
  const { failure } = check;
  const message = `${failure.code} ${failure.title}: ${failure.message.split('\n').slice(0, 12).join('\n')}`;
  if (!interaction) return { message, seed: run.seed };
  const headers = flat(interaction.request.headers);
  const request = { method: interaction.request.method, url: interaction.request.uri, headers, body: decode(interaction.request.body) };
  const response = interaction.response;
  return {
    message,
    request,
    ...(response
      ? {
          response: {
            status: response.status_code,
            contentType: flat(response.headers)['content-type'] ?? '',
            excerpt: excerpt(decode(response.content)),
          },
        }
      : {}),
    // A filtered token is the one given with --token: the curl line reads it from its environment variable.
    curl: curlOf(request, sanitized && headers.Authorization === '[Filtered]' ? 'AGGREGATION_TOKEN' : undefined),
    seed: run.seed,
  };
}

/** Reads a run's event stream into the collector: one testcase per operation and check, across seeds and runs. */
export async function collectEvents(path: string, run: Run, collector: Collector, sanitized: boolean): Promise<{ cases: number; failures: number }> {
  const totals = { cases: 0, failures: 0 };
  const lines = createInterface({ input: createReadStream(path, 'utf8'), crlfDelay: Number.POSITIVE_INFINITY });
  for await (const line of lines) {
    if (!line.startsWith('{"ScenarioFinished"')) continue;
    const recorder = (JSON.parse(line) as { ScenarioFinished: { recorder: Recorded } }).ScenarioFinished.recorder;
    // A skipped scenario (no examples in the schema, say) records no checks.
    for (const [caseId, checks] of Object.entries(recorder.checks ?? {})) {
      const value = recorder.cases[caseId]?.value;
      if (!value) continue;
      totals.cases++;
      const operation = `${value.method.toUpperCase()} ${value.path}`;
      for (const check of checks) {
        const key = { document: run.document, operation, check: check.name };
        if (check.status === 'success') collector.record(key);
        else if (check.status === 'failure' && check.failure_info) {
          totals.failures++;
          collector.record(key, failureOf(run, check.failure_info, recorder.interactions[caseId], sanitized));
        }
      }
    }
  }
  return totals;
}

/**
 * Where Hypothesis keeps its files: in the cache directory, beside the Python environment, rather than in `.hypothesis`
 * of the working directory (each run's report directory). What it keeps there is derived once per machine: its tables
 * of Unicode categories, which cost every run seconds of CPU to build again. The failures it could replay are not kept
 * (`--generation-database none`), so a run still depends on its seed alone.
 */
export function hypothesisStorage(cacheDir: string): { HYPOTHESIS_STORAGE_DIRECTORY: string } {
  return { HYPOTHESIS_STORAGE_DIRECTORY: join(cacheDir, 'hypothesis') };
}

export async function runSchemathesisSuite(ctx: SuiteContext): Promise<SuiteOutcome> {
  const collector = new Collector('schemathesis');
  const outcome = emptyOutcome();
  const python = ctx.python;
  if (!python) throw new Error('Schemathesis was chosen but no Python environment was made');
  const dir = join(ctx.reportDir, 'schemathesis');
  await mkdir(dir, { recursive: true });
  const origins = [ctx.baseUrl, ctx.server.baseUrl, ...ctx.linkOrigins()].join(',');
  const sanitized = ctx.sandbox.mode === 'token';

  const runs: Run[] = [];
  for (const [index, seed] of ctx.options.seeds.entries()) {
    const planned = await plannedRuns(ctx, seed, index === 0);
    runs.push(...planned.runs);
    outcome.skipped.push(...planned.skipped);
  }
  // Longest first: the whole documents' runs take several times the removals', which then fill the gaps.
  runs.sort((a, b) => Number(Boolean(a.include)) - Number(Boolean(b.include)));
  await pMap(
    runs,
    async (run) => {
      const env = {
        ...process.env,
        ...hypothesisStorage(ctx.options.cacheDir),
        CONTRACT_ACCOUNT_ID: run.accountId,
        CONTRACT_APPLICATION_KEY: ctx.sandbox.applicationKey ?? '',
        CONTRACT_SERVER_ORIGINS: origins,
        SCHEMATHESIS_HOOKS: join(packageDir, 'schemathesis_hooks.py'),
      };
      const started = Date.now();
      // Only a run that hangs is stopped: an hour is far beyond any run's length.
      const { code, output } = await execute(python, argsFor(run, ctx, dir), env, dir, 3_600_000);
      const base = fileName(run);
      await writeFile(join(dir, `${base}.txt`), output);
      outcome.rawOutputs.push(...['txt', 'ndjson', 'json', 'junit.xml'].map((ext) => `schemathesis/${base}.${ext}`));
      let totals: { cases: number; failures: number };
      try {
        totals = await collectEvents(join(dir, `${base}.ndjson`), run, collector, sanitized);
      } catch {
        outcome.errors.push(`${run.name} seed ${run.seed}: Schemathesis exited with ${code} and wrote no event stream:\n${output.slice(-3000)}`);
        return;
      }
      const seconds = ((Date.now() - started) / 1000).toFixed(0);
      collector.note(
        run.document,
        `${run.name} seed ${run.seed} (${run.phases}): ${totals.cases} cases, ${totals.failures} failed checks, ${seconds} s`,
      );
      // Exit 1 is failed checks, already in the testcases; anything else is Schemathesis itself failing.
      if (code !== 0 && !(code === 1 && totals.failures > 0)) {
        outcome.errors.push(`${run.name} seed ${run.seed}: Schemathesis exited with ${code}:\n${output.slice(-3000)}`);
      }
    },
    { concurrency: ctx.options.quick ? 3 : 2 },
  );
  outcome.testsuites = collector.testsuites();
  return outcome;
}
