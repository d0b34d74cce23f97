// The contract tests as an integrator installs and runs them: an empty project outside the repository, the packed
// tarballs the package's README names (and not the server), then the steps of its GitHub Action (action.yml) against
// the sandbox server. The action's `run:` steps run as written, with GitHub's environment files; its `uses:` steps,
// which need GitHub, are emulated: actions/setup-node puts this repository's Node.js 24 first on PATH (the machine's
// may be older than Prism's minimum), actions/setup-python checks the machine's python3, actions/upload-artifact copies
// the report directory. The default application of the sandbox is watched throughout: the run must leave its webhook
// URL, secrets and deliveries as they were.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { cp, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { findToolchain, missingTool } from '@aggregation/polyglot';
import { startServer } from '@aggregation/server';
import { skipWhenMissing } from '@aggregation/test-support';
import { XMLParser } from 'fast-xml-parser';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { parse } from 'yaml';
import { type WatchedApplication, watchDefaultApplication } from '../../../packages/contract-tests/scripts/default-application.ts';
import { repoRoot } from '../src/packages.ts';
import { type CopiedTarball, cleanEnv, copyTarballs, run, temporaryDir } from './support/project.ts';

const packageDir = join(repoRoot, 'packages', 'contract-tests');
/** Schemathesis's generated cases per operation, phase and seed: the command's `--max-examples`, passed as the action's `args`. */
const MAX_EXAMPLES = 1;
const skipPython = skipWhenMissing('the contract tests from an empty project (Schemathesis)', missingTool('python', findToolchain()));

type Step = {
  id?: string;
  name?: string;
  if?: string;
  uses?: string;
  with?: Record<string, string>;
  shell?: string;
  env?: Record<string, string>;
  run?: string;
};
type Action = { inputs: Record<string, { default?: string; required?: boolean }>; runs: { using: string; steps: Step[] } };

describe.skipIf(skipPython)('the contract tests, installed in an empty project', () => {
  let project: string;
  let tarballs: CopiedTarball[];
  let sandbox: Awaited<ReturnType<typeof startServer>>;
  let watcher: WatchedApplication;
  // Node.js 24 (this repository's) first on PATH, as actions/setup-node would put the one it installs.
  const env = (extra: Record<string, string> = {}) => cleanEnv({ PATH: `${dirname(process.execPath)}:${process.env.PATH}`, ...extra });

  beforeAll(async () => {
    project = await temporaryDir('aggregation-contract-consumer-');
    await writeFile(join(project, 'package.json'), `${JSON.stringify({ name: 'contract-consumer', private: true }, null, 2)}\n`);
    tarballs = await copyTarballs(project, ['@aggregation/contract-tests']);
    sandbox = await startServer({ port: 0, hostname: '127.0.0.1', databasePath: join(project, 'sandbox.sqlite') });
    watcher = await watchDefaultApplication(sandbox.url);
  });

  afterAll(async () => {
    await watcher?.close();
    await sandbox?.close();
    if (project) await rm(project, { recursive: true, force: true, maxRetries: 3 });
  });

  it("the package's README names exactly the tarballs it needs", async () => {
    const readme = await readFile(join(packageDir, 'README.md'), 'utf8');
    const [, listed = ''] = /aggregation-\{([^}]+)\}-[\d.]+\.tgz/.exec(readme) ?? [];
    assert.deepEqual(
      listed
        .split(',')
        .map((name) => `@aggregation/${name}`)
        .sort(),
      tarballs.map((t) => t.name).sort(),
    );
    assert.ok(!tarballs.some((t) => t.name === '@aggregation/server'), 'the server is an optional peer, not a dependency');
  });

  it("the action's steps install and run the contract tests against the sandbox: exit 0, the reports, the default application as it was", async () => {
    const action = parse(await readFile(join(packageDir, 'action.yml'), 'utf8')) as Action;
    assert.equal(action.runs.using, 'composite');
    const inputs: Record<string, string> = Object.fromEntries(Object.entries(action.inputs).map(([name, input]) => [name, input.default ?? '']));
    // Every suite on every document, each Schemathesis phase included, with one generated case per operation and phase
    // (the default is 10): the run proves the action installs and runs them, which a case each shows, while the package's
    // own tests check the suites. `args` is an input too.
    Object.assign(inputs, {
      'base-url': sandbox.url,
      'report-dir': 'r',
      packages: tarballs.map((t) => `./tarballs/${t.file}`).join(' '),
      args: `--max-examples ${MAX_EXAMPLES}`,
    });
    const summaryFile = join(project, 'step-summary.md');
    await writeFile(summaryFile, '');
    const artifacts = join(project, 'artifacts');
    const outputs: Record<string, Record<string, string>> = {};
    const expression = (text: string) =>
      text.replace(/\$\{\{\s*([^}]+?)\s*\}\}/g, (_, expr: string) => {
        const input = /^inputs\.([\w-]+)$/.exec(expr);
        if (input) return inputs[input[1]!] ?? '';
        const output = /^steps\.([\w-]+)\.outputs\.([\w-]+)$/.exec(expr);
        if (output) return outputs[output[1]!]?.[output[2]!] ?? '';
        throw new Error(`the emulation does not know the expression ${expr}`);
      });

    let failed = false;
    const ran: { step: string; code: number }[] = [];
    for (const step of action.runs.steps) {
      const always = step.if === 'always()';
      assert.ok(step.if === undefined || always, `a condition the emulation does not know: ${step.if}`);
      if (failed && !always) continue;
      const name = step.name ?? step.uses ?? '?';
      if (step.uses) {
        const uses = step.uses.split('@')[0];
        if (uses === 'actions/setup-node') continue; // Node.js 24 is first on PATH (env above).
        if (uses === 'actions/setup-python') {
          const { stdout } = await run('python3', ['-c', 'import sys; print(sys.version_info >= (3, 11))']);
          assert.equal(stdout.trim(), 'True', 'python3 on PATH is 3.11 or newer');
          continue;
        }
        if (uses === 'actions/upload-artifact') {
          const path = expression(step.with!.path!);
          await cp(join(project, path), join(artifacts, expression(step.with!.name!)), { recursive: true });
          continue;
        }
        throw new Error(`the emulation does not know ${step.uses}`);
      }
      assert.equal(step.shell, 'bash');
      const outputFile = join(project, `output-${ran.length}`);
      await writeFile(outputFile, '');
      const stepEnv = env({
        GITHUB_OUTPUT: outputFile,
        GITHUB_STEP_SUMMARY: summaryFile,
        GITHUB_ACTION_PATH: packageDir,
        ...Object.fromEntries(Object.entries(step.env ?? {}).map(([key, value]) => [key, expression(String(value))])),
      });
      // As GitHub runs a bash step: bash --noprofile --norc -eo pipefail {script}.
      const child = spawn('bash', ['--noprofile', '--norc', '-eo', 'pipefail', '-c', expression(step.run!)], {
        cwd: project,
        env: stepEnv,
        stdio: ['ignore', 'inherit', 'inherit'],
      });
      const code = await new Promise<number>((resolve) => child.on('close', (exit) => resolve(exit ?? 1)));
      ran.push({ step: name, code });
      if (step.id)
        outputs[step.id] = Object.fromEntries(
          (await readFile(outputFile, 'utf8'))
            .split('\n')
            .filter(Boolean)
            .map((line) => line.split(/=(.*)/s).slice(0, 2) as [string, string]),
        );
      if (code !== 0) failed = true;
    }
    assert.deepEqual(
      ran.map((r) => r.code),
      ran.map(() => 0),
      JSON.stringify(ran),
    );
    assert.equal(outputs.run?.['exit-code'], '0');

    const reportDir = join(project, 'r');
    const junit = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '', isArray: (n) => n === 'testsuite' || n === 'testcase' }).parse(
      await readFile(join(reportDir, 'junit.xml'), 'utf8'),
    ) as { testsuites: { tests: string; failures: string; errors: string; testsuite: { name: string; testcase: { name: string }[] }[] } };
    assert.equal(junit.testsuites.failures, '0');
    assert.equal(junit.testsuites.errors, '0');
    const names = junit.testsuites.testsuite.map((s) => s.name);
    for (const suite of ['behaviour', 'proxy', 'schemathesis', 'arazzo']) {
      for (const document of ['2020-10-12', '2019-07-01', 'sandbox']) {
        if (suite === 'arazzo' && document === '2019-07-01') continue; // the workflows speak the current version
        assert.ok(names.includes(`${suite} ${document}`), `${suite} ${document} in ${names.join(', ')}`);
      }
    }
    const testcases = junit.testsuites.testsuite.flatMap((s) => s.testcase.map((t) => t.name));
    for (const check of [
      'paging: newest first',
      'links: self returns the resource that carried it',
      'idempotency: same key and body give the same payment',
      "versions: matches the version's schema",
      'errors: the code is one the description declares',
      'balances: running_balance chains through the posted transactions',
    ]) {
      assert.ok(
        testcases.some((name) => name.endsWith(check)),
        check,
      );
    }
    const summary = await readFile(join(reportDir, 'summary.md'), 'utf8');
    assert.match(summary, /^# Contract tests passed/);
    for (const section of ['Coverage', 'behaviour', 'proxy', 'schemathesis', 'arazzo'])
      assert.match(summary, new RegExp(`## ${section}\\n\\n\\| document \\|`));
    assert.equal(await readFile(summaryFile, 'utf8'), summary, 'summary.md is what the job summary shows');
    const report = JSON.parse(await readFile(join(reportDir, 'report.json'), 'utf8')) as {
      exitCode: number;
      options: { maxExamples: number };
      coverage: { document: string; responses: { observed: number } }[];
    };
    assert.equal(report.exitCode, 0);
    assert.equal(report.options.maxExamples, MAX_EXAMPLES, 'the args input reached the command');
    assert.ok(report.coverage.every((c) => c.responses.observed > 0));
    assert.ok(existsSync(join(artifacts, inputs['artifact-name']!, 'junit.xml')), 'the report directory was uploaded');
    assert.ok(
      !existsSync(join(reportDir, 'schemathesis', '.hypothesis')),
      "Hypothesis keeps its files in the command's cache directory, not in the uploaded report directory",
    );
    assert.deepEqual(await watcher.compare(), [], "the default application's webhook URL, secrets and deliveries are as they were");
    // Longer than the hang guard: installs from scratch (npm and Schemathesis's pip) and runs every suite of the
    // contract tests, Schemathesis's generated cases included, on 2 shared cores.
  }, 3_600_000);

  it('without --base-url and without @aggregation/server it says what to do, exit 2; a bad option is one line and the usage', async () => {
    const bin = join(project, 'node_modules', '.bin', 'aggregation-contract-tests');
    const missing = await run(bin, ['--only', 'behaviour'], { cwd: project, env: env() }).then(
      () => undefined,
      (error: { code: number; stderr: string }) => error,
    );
    assert.equal(missing?.code, 2);
    assert.match(missing!.stderr, /no --base-url given, and @aggregation\/server .* is not installed: pass --base-url <url>/);
    const wrong = await run(bin, ['--nope'], { cwd: project, env: env() }).then(
      () => undefined,
      (error: { code: number; stderr: string }) => error,
    );
    assert.equal(wrong?.code, 2);
    assert.match(wrong!.stderr, /^error: unknown option '--nope'\n\nUsage: aggregation-contract-tests/);
    assert.doesNotMatch(wrong!.stderr, /\n\s+at /);
  });
});
