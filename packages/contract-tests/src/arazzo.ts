// The Arazzo workflows of arazzo/*.arazzo.yaml run by `redocly respect` against the server, each sandbox user enrolled
// in the run's own application. Respect checks each step's success criteria and, from the OpenAPI documents, that the
// status is documented and that the content type and body match. Workflows only called by other workflows (paging)
// are not run on their own. The workflow files name the bundles by their place in this repository; the copies run
// here name the bundles of the installed @aggregation/openapi instead.
import { spawn } from 'node:child_process';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { basename, dirname, join } from 'node:path';
import { distDir } from '@aggregation/openapi/contract';
import pMap from 'p-map';
import { parse, stringify } from 'yaml';
import { documentOf, validatorOf } from './coverage.ts';
import { packageDir } from './python.ts';
import { Collector } from './report/collect.ts';
import { curlOf, excerpt } from './report/curl.ts';
import { emptyOutcome, type SuiteContext, type SuiteOutcome } from './suite.ts';

const require = createRequire(import.meta.url);
const redocly = join(dirname(require.resolve('@redocly/cli/package.json')), 'bin', 'cli.js');
export const arazzoDir = join(packageDir, 'arazzo');

export type Workflow = { workflowId: string; steps?: { workflowId?: string; operationId?: string }[]; 'x-mock-inputs'?: Record<string, string> };
export type ArazzoFile = { path: string; name: string; workflows: Workflow[] };

/** Workflows that no step of the file calls: the journeys themselves. */
export function topLevel(file: ArazzoFile): string[] {
  const called = new Set(file.workflows.flatMap((w) => (w.steps ?? []).map((s) => s.workflowId).filter(Boolean)));
  return file.workflows.map((w) => w.workflowId).filter((id) => !called.has(id));
}

/** The inputs that make the Prism mock answer as the server would: the `x-mock-inputs` of the file's workflows. */
export function mockInputs(file: ArazzoFile): Record<string, string> {
  return Object.assign({}, ...file.workflows.map((workflow) => workflow['x-mock-inputs'] ?? {}));
}

export async function loadFiles(): Promise<ArazzoFile[]> {
  const names = (await readdir(arazzoDir)).filter((name) => name.endsWith('.arazzo.yaml')).sort();
  return Promise.all(
    names.map(async (name) => {
      const doc = parse(await readFile(join(arazzoDir, name), 'utf8')) as { workflows: Workflow[] };
      return { path: join(arazzoDir, name), name: basename(name, '.arazzo.yaml'), workflows: doc.workflows };
    }),
  );
}

/** A copy of a workflow file in `dir` whose source descriptions are the installed bundles (same file names). */
export async function withInstalledBundles(file: ArazzoFile, dir: string): Promise<string> {
  const doc = parse(await readFile(file.path, 'utf8')) as { sourceDescriptions: { url: string }[] };
  for (const source of doc.sourceDescriptions) source.url = join(distDir, basename(source.url));
  const copy = join(dir, `${file.name}.arazzo.yaml`);
  await writeFile(copy, stringify(doc, { lineWidth: 0 }));
  return copy;
}

/** What `redocly respect --json-output` writes (the fields read here). */
export type Executed = {
  type: 'workflow' | 'step';
  workflowId?: string;
  stepId?: string;
  status?: string;
  executedSteps?: Executed[];
  checks?: { name: string; passed: boolean; message: string }[];
  request?: { method: string; url: string; headers?: Record<string, string>; body?: unknown };
  response?: { statusCode: number; body?: unknown; header?: Record<string, string> };
};
export type RespectReport = { status: string; files: Record<string, { totalRequests: number; executedWorkflows: Executed[] }> };

type Tally = { workflows: number; passed: number; steps: number; checks: number; failed: number; requests: number };

/** Reads a Respect report into the collector: one testcase per step's operation and check. */
export function collectReport(report: RespectReport, collector: Collector): Tally {
  const tally: Tally = { workflows: 0, passed: 0, steps: 0, checks: 0, failed: 0, requests: 0 };
  const walk = (items: Executed[], workflowId: string) => {
    for (const item of items) {
      if (item.type === 'workflow') {
        walk(item.executedSteps ?? [], item.workflowId ?? workflowId);
        continue;
      }
      tally.steps++;
      // A step Respect could not send (its server unreachable, say) may carry no URL, or one that is not absolute.
      const path = (item.request?.url && URL.parse(item.request.url, 'http://step.invalid')?.pathname) || '/';
      const method = item.request?.method.toUpperCase() ?? 'GET';
      const document = documentOf({ path, requestHeaders: lower(item.request?.headers), responseHeaders: lower(item.response?.header) });
      const template = validatorOf(document).match(method, path)?.path ?? path;
      for (const check of item.checks ?? []) {
        tally.checks++;
        const key = { document, operation: `${method} ${template}`, check: `${workflowId}/${item.stepId}: ${check.name}` };
        if (check.passed) {
          collector.record(key);
          continue;
        }
        tally.failed++;
        const body = item.request?.body === undefined ? undefined : JSON.stringify(item.request.body);
        const request = item.request ? { method, url: item.request.url, headers: item.request.headers ?? {}, ...(body ? { body } : {}) } : undefined;
        collector.record(key, {
          message: check.message.replace(/\s+/g, ' ').slice(0, 600),
          ...(request ? { request, curl: curlOf(request) } : {}),
          ...(item.response
            ? {
                response: {
                  status: item.response.statusCode,
                  excerpt: excerpt(typeof item.response.body === 'string' ? item.response.body : JSON.stringify(item.response.body ?? '')),
                },
              }
            : {}),
        });
      }
    }
  };
  for (const file of Object.values(report.files)) {
    tally.requests += file.totalRequests;
    for (const workflow of file.executedWorkflows) {
      tally.workflows++;
      if (workflow.status === 'success') tally.passed++;
      walk(workflow.executedSteps ?? [], workflow.workflowId ?? '?');
    }
  }
  return tally;
}

const lower = (headers: Record<string, string> | undefined) =>
  Object.fromEntries(Object.entries(headers ?? {}).map(([k, v]) => [k.toLowerCase(), String(v)]));

/** Runs `redocly respect` on one file; answers its exit code and everything it printed. */
export function respect(args: string[], cwd: string, timeoutMs: number): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [redocly, 'respect', ...args], {
      cwd,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}

/** Runs every workflow file against `servers`; `label` names the raw outputs. */
export async function runWorkflows(
  files: ArazzoFile[],
  servers: { api: string; sandbox: string },
  inputs: (file: ArazzoFile) => Record<string, string>,
  dir: string,
  label: string,
): Promise<{ collector: Collector; outcome: SuiteOutcome; tally: Tally }> {
  const collector = new Collector('arazzo');
  const outcome = emptyOutcome();
  const total: Tally = { workflows: 0, passed: 0, steps: 0, checks: 0, failed: 0, requests: 0 };
  await mkdir(dir, { recursive: true });
  await pMap(
    files,
    async (file) => {
      const copy = await withInstalledBundles(file, dir);
      const report = join(dir, `${file.name}-${label}.json`);
      const args = [
        copy,
        '--workflow',
        ...topLevel(file),
        '--server',
        JSON.stringify(servers),
        '--json-output',
        report,
        '--input',
        JSON.stringify(inputs(file)),
        // The paging workflow calls itself while pages come full: a server that cycles through pages would otherwise
        // run to Respect's default of 2,000 steps. A correct run of every file takes under 50.
        '--max-steps',
        '400',
      ];
      const { code, output } = await respect(args, dir, 3_600_000);
      await writeFile(join(dir, `${file.name}-${label}.txt`), output);
      outcome.rawOutputs.push(`arazzo/${file.name}-${label}.json`, `arazzo/${file.name}-${label}.txt`);
      let parsed: RespectReport;
      try {
        parsed = JSON.parse(await readFile(report, 'utf8')) as RespectReport;
      } catch {
        outcome.errors.push(`${file.name}: redocly respect exited with ${code} and wrote no report:\n${output.slice(-3000)}`);
        return;
      }
      const one = collectReport(parsed, collector);
      for (const key of Object.keys(total) as (keyof Tally)[]) total[key] += one[key];
      if (code !== 0 && one.failed === 0) outcome.errors.push(`${file.name}: redocly respect exited with ${code}:\n${output.slice(-3000)}`);
    },
    { concurrency: 2 },
  );
  return { collector, outcome, tally: total };
}

export async function runArazzoSuite(ctx: SuiteContext): Promise<SuiteOutcome> {
  if (ctx.sandbox.mode !== 'own-application') {
    return { ...emptyOutcome(), skipped: ['every workflow enrolls a sandbox user, which needs the sandbox control API (not with --token)'] };
  }
  const files = await loadFiles();
  const key = ctx.sandbox.applicationKey!;
  const { collector, outcome, tally } = await runWorkflows(
    files,
    { api: ctx.baseUrl, sandbox: ctx.baseUrl },
    () => ({ applicationKey: key }),
    join(ctx.reportDir, 'arazzo'),
    'server',
  );
  const line =
    `${tally.passed}/${tally.workflows} workflows passed (${files.map((f) => f.name).join(', ')}), ${tally.steps} steps, ` +
    `${tally.requests} requests, ${tally.checks} checks, ${tally.failed} failed`;
  for (const testsuite of collector.testsuites()) collector.note(testsuite.document, line);
  outcome.testsuites = collector.testsuites();
  return outcome;
}
