// Suite 2: Schemathesis against the server, every operation of both versions and of the sandbox document, with all
// of its checks (schemathesis.toml says where an expectation differs, and why). Each run reads its own JSON report.
import { spawn } from 'node:child_process';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { type DocumentName, distDir, loadBundle, operationsOf } from '@aggregation/openapi/contract';
import { VERSIONS } from '@aggregation/openapi/versions';
import { ensureEnv, findPython, packageDir } from './python.ts';
import { count, newResult, type SuiteResult } from './report.ts';
import type { Target } from './target.ts';

export type SchemathesisOptions = { maxExamples: number; seeds: number[]; workers: number; ci: boolean; store: string };

/** Fixed seeds and one drawn afresh each run: the fixed ones keep a run reproducible, the fresh one keeps exploring. */
export const defaultSeeds = '20201012,7,1729,random';

/** `1,2,random` to seeds; `random` draws one (printed with the results, so that a failure can be replayed). */
export function parseSeeds(value: string, draw: () => number = () => Math.floor(Math.random() * 2 ** 31)): number[] {
  return value.split(',').map((part) => {
    const text = part.trim();
    if (text === 'random') return draw();
    if (!/^\d+$/.test(text)) throw new Error(`--seed takes numbers or "random", comma-separated; got "${text}"`);
    return Number(text);
  });
}

type Run = {
  name: string;
  document: DocumentName;
  /** Only these operations (by operationId); otherwise all but `exclude`. */
  include?: string[];
  exclude?: string[];
  token: string;
  accountId: string;
  version?: string;
  why: string;
};

/** What Schemathesis writes with --report json (the fields read here). */
export type JsonReport = {
  exit_code: number;
  operations: { selected: number; tested: number; errored: number };
  phases: Record<string, { status: string; skip_reason: string | null }>;
  test_cases: { generated: number; with_failures: number; errored: number };
  failures: { code: string; title: string; count: number; operations: string[] }[];
  errors: unknown[];
};

/** Failure codes by what they mean for the report (see `st explain <code>`). */
const serverErrorCodes = new Set(['ST101', 'ST102']);
const schemaViolationCodes = new Set(['ST103', 'ST104', 'ST105', 'ST106', 'ST107', 'ST108', 'ST109', 'ST110', 'ST111']);

/** The counts a run is judged by: failures of any check, of them server errors and schema violations, and crashes. */
export function summarize(report: JsonReport): { failures: number; serverErrors: number; violations: number; crashes: number } {
  const sum = (codes?: Set<string>) => report.failures.filter((f) => !codes || codes.has(f.code)).reduce((total, f) => total + f.count, 0);
  return {
    failures: sum(),
    serverErrors: sum(serverErrorCodes),
    violations: sum(schemaViolationCodes),
    crashes: report.errors.length + report.test_cases.errored + report.operations.errored,
  };
}

/** Removing an account or the enrollment revokes what later cases need, so those operations run on their own. */
const removals = ['deleteAccount', 'deleteAccounts'];
/** Answers that stream until the client leaves: every generated case would end in the request timeout. */
const streams = ['streamSandboxLogs'];

const reportsDir = join(packageDir, 'reports');

async function accountFor(target: Target, token: string, version: string): Promise<string> {
  const response = await fetch(`${target.baseUrl}/accounts`, {
    headers: { authorization: `Basic ${btoa(`${token}:`)}`, 'service-version': version },
  });
  if (!response.ok) throw new Error(`GET /accounts answered ${response.status} for the Schemathesis token`);
  const accounts = (await response.json()) as { id: string; links: { payments?: string } }[];
  const account = accounts.find((a) => a.links.payments) ?? accounts[0];
  if (!account) throw new Error('the token has no accounts');
  return account.id;
}

async function plannedRuns(target: Target, withRemovals: boolean): Promise<{ runs: Run[]; skipped: string[] }> {
  const runs: Run[] = [];
  const skipped: string[] = [];
  for (const version of VERSIONS) {
    const token = await target.token();
    runs.push({
      name: version,
      document: version,
      exclude: removals,
      token,
      accountId: await accountFor(target, token, version),
      version,
      why: 'every operation but the removals, stateful phase included',
    });
    if (!target.sandbox) {
      skipped.push(`${version} ${removals.join(', ')}: they would revoke the given token; they need the sandbox control API for fresh ones`);
      continue;
    }
    if (!withRemovals) continue;
    const removing = await target.enroll('username');
    runs.push({
      name: `${version}-deleteAccount`,
      document: version,
      include: ['listAccounts', 'deleteAccount'],
      token: removing.token,
      accountId: removing.accounts[0]!.id,
      version,
      why: 'removing one account, on a fresh enrollment',
    });
    const revoking = await target.enroll('username');
    runs.push({
      name: `${version}-deleteAccounts`,
      document: version,
      include: ['deleteAccounts'],
      token: revoking.token,
      accountId: revoking.accounts[0]!.id,
      version,
      why: 'removing the enrollment, on a fresh enrollment',
    });
  }
  if (target.sandbox) {
    const enrolled = await target.enroll('username');
    const savings = enrolled.accounts.find((a) => a.subtype === 'savings') ?? enrolled.accounts[0]!;
    runs.push({
      name: 'sandbox',
      document: 'sandbox',
      exclude: streams,
      token: enrolled.token,
      accountId: savings.id,
      why: 'the sandbox control API but the request log stream',
    });
    skipped.push(`sandbox ${streams.join(', ')}: a stream that stays open until the reader leaves; the proxy journey checks it`);
  } else {
    skipped.push('sandbox document: the server has no sandbox control API');
  }
  return { runs, skipped };
}

/**
 * The examples and coverage phases are derived from the description, nearly the same whatever the seed: the first
 * seed runs every phase, the others only the phases a seed steers (random inputs and sequences of calls).
 */
const seededPhases = 'fuzzing,stateful';

function argsFor(run: Run, target: Target, options: SchemathesisOptions, seed: number): string[] {
  const args = ['--config-file', join(packageDir, 'schemathesis.toml'), 'run', join(distDir, `${run.document}.json`)];
  args.push('--url', target.baseUrl, '--auth', `${run.token}:`);
  // Each document describes one version; the header keeps the answers in it (the server's default could differ).
  if (run.version) args.push('--header', `Service-Version: ${run.version}`);
  args.push('--checks', 'all', '--max-examples', String(options.maxExamples), '--seed', String(seed));
  if (seed !== options.seeds[0]) args.push('--phases', seededPhases);
  args.push('--workers', String(options.workers), '--request-timeout', '10', '--generation-database', 'none', '--no-color');
  args.push('--report', 'json', '--report-json-path', join(reportsDir, `schemathesis-${reportName(run, options, seed)}.json`));
  for (const id of run.include ?? []) args.push('--include-operation-id', id);
  for (const id of run.exclude ?? []) args.push('--exclude-operation-id', id);
  return args;
}

/** Each run's report files: `schemathesis-<store>-<run>-seed<seed>.json` and `.txt`. */
const reportName = (run: Run, options: SchemathesisOptions, seed: number) => `${options.store}-${run.name}-seed${seed}`;

/** Runs one Schemathesis command; answers its exit code and everything it printed. */
function execute(bin: string, args: string[], env: NodeJS.ProcessEnv, timeoutMs: number): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    // Run in reports/ so that Hypothesis' own working files land there, not in the package.
    const child = spawn(bin, args, { cwd: reportsDir, env, stdio: ['ignore', 'pipe', 'pipe'] });
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

export async function runSchemathesisSuite(target: Target, options: SchemathesisOptions): Promise<SuiteResult> {
  const result = newResult(
    `Schemathesis on ${options.store} (--checks all, ${options.maxExamples} examples per operation and seed, seeds ${options.seeds.join(', ')})`,
  );
  const found = await findPython();
  if ('missing' in found) {
    // Optional on a developer machine, required in CI.
    if (options.ci) result.problems.push(`${found.missing} (CI=true: Schemathesis must run)`);
    else result.skipped.push(`${found.missing}; install Python 3.11+ with venv to run Schemathesis (in CI this fails)`);
    return result;
  }
  let env: Awaited<ReturnType<typeof ensureEnv>>;
  try {
    env = await ensureEnv(found.python, (line) => console.log(`  ${line}`));
  } catch (error) {
    if (options.ci) result.problems.push((error as Error).message);
    else result.skipped.push(`${(error as Error).message} (in CI this fails)`);
    return result;
  }

  await mkdir(reportsDir, { recursive: true });
  const covered = new Map<DocumentName, Set<string>>();
  const shown = new Set<string>();
  for (const seed of options.seeds) {
    // Fresh enrollments per seed. The removals, two calls each, run with the first seed only.
    const first = seed === options.seeds[0];
    const { runs, skipped } = await plannedRuns(target, first);
    if (first) result.skipped.push(...skipped);
    for (const planned of runs) {
      const run = { ...planned, name: `${planned.name} seed ${seed}` };
      const name = reportName(planned, options, seed);
      const args = argsFor(planned, target, options, seed);
      const { code, output } = await execute(env.schemathesis, args, { ...process.env, CONTRACT_ACCOUNT_ID: run.accountId }, 300_000);
      await writeFile(join(reportsDir, `schemathesis-${name}.txt`), output);
      let report: JsonReport;
      try {
        report = JSON.parse(await readFile(join(reportsDir, `schemathesis-${name}.json`), 'utf8')) as JsonReport;
      } catch {
        result.problems.push(`${run.name}: Schemathesis exited with ${code} and wrote no report:\n${output.slice(-4000)}`);
        continue;
      }
      const ids = operationsOf(loadBundle(run.document))
        .map((o) => o.operationId)
        .filter((id) => (run.include ? run.include.includes(id) : !(run.exclude ?? []).includes(id)));
      const seen = covered.get(run.document) ?? new Set<string>();
      for (const id of ids) seen.add(id);
      covered.set(run.document, seen);

      const { failures, serverErrors, violations, crashes } = summarize(report);
      const phases = Object.entries(report.phases)
        .map(([phase, { status, skip_reason }]) => `${phase} ${status === 'skip' ? `skipped (${skip_reason})` : status}`)
        .join(', ');
      result.lines.push(
        `${run.name}: ${report.operations.tested}/${report.operations.selected} operations, ${count(report.test_cases.generated, 'case')}, ` +
          `${count(failures, 'failure')} (${count(serverErrors, 'server error')}, ${count(violations, 'schema violation')}), ` +
          `${count(crashes, 'crash')}; ${phases}`,
      );
      for (const failure of report.failures) {
        result.problems.push(`${run.name}: ${failure.code} ${failure.title} (${failure.count}): ${failure.operations.join(', ')}`);
      }
      if (crashes > 0 || code !== 0) {
        if (report.failures.length === 0) result.problems.push(`${run.name}: Schemathesis exited with ${code}, ${count(crashes, 'crash')}`);
        // The reproductions (curl lines) of a kind of failure are shown once; every run's are in its file.
        const fresh = report.failures.some((f) => !shown.has(f.code)) || report.failures.length === 0;
        for (const failure of report.failures) shown.add(failure.code);
        const file = `packages/contract-tests/reports/schemathesis-${name}.txt`;
        result.problems.push(fresh ? `${run.name}: reproductions (all in ${file}):\n${excerpt(output)}` : `${run.name}: reproductions in ${file}`);
      }
    }
  }
  for (const [document, ids] of covered) {
    const all = operationsOf(loadBundle(document)).length;
    result.lines.push(`${document}: ${ids.size}/${all} operations covered by the runs above`);
  }
  return result;
}

/** The failures section of Schemathesis' output, which holds a curl line to reproduce each. */
function excerpt(output: string): string {
  const start = output.indexOf('FAILURES');
  const end = output.indexOf('SUMMARY');
  const text = start >= 0 ? output.slice(start, end > start ? end : undefined) : output.slice(-3000);
  return text.length > 3000 ? `${text.slice(0, 3000)}\n(cut; the whole output is in the file)` : text;
}
