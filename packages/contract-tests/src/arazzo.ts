// Suite 3: the Arazzo workflows of arazzo/*.arazzo.yaml run by `redocly respect`, against the server and against
// the Prism mock. Respect checks each step's success criteria and, from the OpenAPI documents, that the status is
// documented and that the content type and body match. Workflows only called by other workflows (paging) are not
// run on their own; a workflow's `x-mock-inputs` steer the mock's answers (`Prefer`).
import { spawn } from 'node:child_process';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { basename, dirname, join } from 'node:path';
import { type Running, startMock } from '@aggregation/mock';
import { CURRENT_VERSION } from '@aggregation/openapi/versions';
import { parse } from 'yaml';
import { packageDir } from './python.ts';
import { count, newResult, type SuiteResult } from './report.ts';
import type { Target } from './target.ts';

const require = createRequire(import.meta.url);
const redocly = join(dirname(require.resolve('@redocly/cli/package.json')), 'bin', 'cli.js');
const arazzoDir = join(packageDir, 'arazzo');
const reportsDir = join(packageDir, 'reports');

export type Workflow = { workflowId: string; steps?: { workflowId?: string; operationId?: string }[]; 'x-mock-inputs'?: Record<string, string> };
export type ArazzoFile = { path: string; name: string; workflows: Workflow[] };

/** Workflows that no step of the file calls: the journeys themselves. */
export function topLevel(file: ArazzoFile): string[] {
  const called = new Set(file.workflows.flatMap((w) => (w.steps ?? []).map((s) => s.workflowId).filter(Boolean)));
  return file.workflows.map((w) => w.workflowId).filter((id) => !called.has(id));
}

/** The inputs that make the mock answer as the server would: the `x-mock-inputs` of the file's workflows. */
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

/** What `redocly respect --json-output` writes (the fields read here). */
export type Executed = {
  type: 'workflow' | 'step';
  workflowId?: string;
  stepId?: string;
  status?: string;
  executedSteps?: Executed[];
  checks?: { name: string; passed: boolean; message: string }[];
  request?: { method: string; url: string };
  response?: { statusCode: number };
};
export type RespectReport = { status: string; files: Record<string, { totalRequests: number; executedWorkflows: Executed[] }> };

type Tally = { workflows: number; passed: number; steps: number; checks: number; failedChecks: string[]; requests: number };

export function tally(report: RespectReport): Tally {
  const result: Tally = { workflows: 0, passed: 0, steps: 0, checks: 0, failedChecks: [], requests: 0 };
  const walk = (items: Executed[], workflowId: string) => {
    for (const item of items) {
      if (item.type === 'workflow') {
        walk(item.executedSteps ?? [], item.workflowId ?? workflowId);
        continue;
      }
      result.steps++;
      for (const check of item.checks ?? []) {
        result.checks++;
        if (!check.passed) {
          const where = item.request ? `${item.request.method.toUpperCase()} ${new URL(item.request.url).pathname} → ${item.response?.statusCode}` : '';
          result.failedChecks.push(`${workflowId}/${item.stepId} ${check.name} ${where}: ${check.message.replace(/\s+/g, ' ').slice(0, 400)}`);
        }
      }
    }
  };
  for (const file of Object.values(report.files)) {
    result.requests += file.totalRequests;
    for (const workflow of file.executedWorkflows) {
      result.workflows++;
      if (workflow.status === 'success') result.passed++;
      walk(workflow.executedSteps ?? [], workflow.workflowId ?? '?');
    }
  }
  return result;
}

function respect(args: string[], timeoutMs: number): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [redocly, 'respect', ...args], { cwd: packageDir, stdio: ['ignore', 'pipe', 'pipe'] });
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

async function runAgainst(label: string, files: ArazzoFile[], servers: { api: string; sandbox: string }, mock: boolean, result: SuiteResult) {
  const total: Tally = { workflows: 0, passed: 0, steps: 0, checks: 0, failedChecks: [], requests: 0 };
  for (const file of files) {
    const report = join(reportsDir, `arazzo-${file.name}-${label}.json`);
    const args = [file.path, '--workflow', ...topLevel(file), '--server', JSON.stringify(servers), '--json-output', report];
    if (mock) args.push('--input', JSON.stringify(mockInputs(file)));
    const { code, output } = await respect(args, 120_000);
    await writeFile(join(reportsDir, `arazzo-${file.name}-${label}.txt`), output);
    let parsed: RespectReport;
    try {
      parsed = JSON.parse(await readFile(report, 'utf8')) as RespectReport;
    } catch {
      result.problems.push(`${label} ${file.name}: redocly respect exited with ${code} and wrote no report:\n${output.slice(-3000)}`);
      continue;
    }
    const one = tally(parsed);
    total.workflows += one.workflows;
    total.passed += one.passed;
    total.steps += one.steps;
    total.checks += one.checks;
    total.requests += one.requests;
    result.problems.push(...one.failedChecks.map((line) => `${label} ${file.name}: ${line}`));
    if (code !== 0 && one.failedChecks.length === 0)
      result.problems.push(`${label} ${file.name}: redocly respect exited with ${code}:\n${output.slice(-3000)}`);
  }
  result.lines.push(
    `${label}: ${total.passed}/${total.workflows} workflows passed (${files.map((f) => f.name).join(', ')}), ${count(total.steps, 'step')}, ` +
      `${count(total.requests, 'request')}, ${count(total.checks, 'check')}, ${total.failedChecks.length} failed`,
  );
}

export async function runArazzoSuite(target: Target): Promise<SuiteResult> {
  const result = newResult('Arazzo workflows (redocly respect)');
  await mkdir(reportsDir, { recursive: true });
  const files = await loadFiles();
  if (!target.sandbox) {
    result.skipped.push('server: every workflow enrolls a sandbox user, and this server has no sandbox control API');
  } else {
    await runAgainst('server', files, { api: target.baseUrl, sandbox: target.baseUrl }, false, result);
  }
  // The mock answers every workflow: documented examples, with `Prefer` (x-mock inputs) choosing the error answers.
  const mocks: Running[] = [];
  try {
    const api = await startMock({ version: CURRENT_VERSION });
    mocks.push(api);
    const sandbox = await startMock({ version: 'sandbox' });
    mocks.push(sandbox);
    await runAgainst('mock', files, { api: api.url, sandbox: sandbox.url }, true, result);
  } finally {
    await Promise.all(mocks.map((mock) => mock.stop()));
  }
  return result;
}
