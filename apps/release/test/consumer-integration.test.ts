// The consumer contract tests as an integrator installs and runs them: an empty project outside the repository with
// the packed tarballs of @aggregation/contract-tests and @aggregation/server (for the sandbox it starts), then
// `npx aggregation-contract-tests consumer --faults all -- node app.js` on the reference integration the package
// ships (exit 0) and on each of its broken copies (exit 1, the defect named in junit.xml), `webhooks` on its receivers
// likewise, and the guide Test your integration as it reads: its TypeScript app with every fault round, and the Python
// client's quick start from the packed wheel.
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { copyFile, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { codeBlocksOf, loadGuides } from '@aggregation/docs/guides';
import { findToolchain, missingTool, venvPython } from '@aggregation/polyglot';
import { skipWhenMissing } from '@aggregation/test-support';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { pythonReleaseDir, repoRoot } from '../src/packages.ts';
import { cleanEnv, installPacked, run, temporaryDir } from './support/project.ts';

const toolchain = findToolchain();
const skipPython = skipWhenMissing('the consumer contract tests of the Python quick start', missingTool('python', toolchain));
const guide = loadGuides().find((g) => g.name === 'test-your-integration')!;
const blockOf = (language: string) => codeBlocksOf(guide).find((b) => b.language === language && b.runnable)!.source;

/** Runs the installed command in the project; resolves with its exit code and output, whatever the code. */
async function contractTests(project: string, args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  // Node.js 24 first on PATH, as a CI job that set it up would have it (Prism and the sandbox need it).
  const env = cleanEnv({ PATH: `${dirname(process.execPath)}:${process.env.PATH}`, GITHUB_STEP_SUMMARY: '' });
  return run('npx', ['--no', '--', 'aggregation-contract-tests', ...args], { cwd: project, env, maxBuffer: 64 * 1024 * 1024 }).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (error: { code: number; stdout: string; stderr: string }) => ({ code: error.code, stdout: error.stdout, stderr: error.stderr }),
  );
}

describe('the consumer contract tests, installed in an empty project', () => {
  let project: string;
  const installed = () => join(project, 'node_modules', '@aggregation', 'contract-tests');

  beforeAll(async () => {
    project = await temporaryDir('aggregation-consumer-contract-');
    await writeFile(join(project, 'package.json'), `${JSON.stringify({ name: 'my-integration', private: true, type: 'module' }, null, 2)}\n`);
    await installPacked(project, ['@aggregation/contract-tests', '@aggregation/server']);
  });
  afterAll(async () => {
    if (project) await rm(project, { recursive: true, force: true, maxRetries: 3 });
  });

  it('consumer --faults all -- node app.js: the shipped reference integration passes, the verdict first', async () => {
    await copyFile(join(installed(), 'reference', 'app.js'), join(project, 'app.js'));
    const ran = await contractTests(project, ['consumer', '--faults', 'all', '--', 'node', 'app.js']);
    assert.equal(ran.code, 0, `${ran.stdout}\n${ran.stderr}`);
    assert.match(
      ran.stdout.split('\n')[0]!,
      /^consumer contract tests passed: .*; fault rounds passed: rate-limit, server-error, lost-answer, gone, disconnected, mfa$/,
    );
    const junit = await readFile(join(project, 'contract-reports', 'consumer', 'junit.xml'), 'utf8');
    assert.match(junit, /name="POST \/accounts\/\{account_id\}\/payments"/);
    assert.match(junit, /name="lost-answer"/);
  });

  it('each broken copy of the reference exits 1 naming its defect; the receivers likewise with webhooks', async () => {
    // The package's self-test, on the installed bin and the installed reference.
    const bin = join(project, 'node_modules', '.bin', 'aggregation-contract-tests');
    const script = join(repoRoot, 'packages', 'contract-tests', 'scripts', 'consumer-mutants.ts');
    const { stdout } = await run(process.execPath, [script, '--bin', bin, '--reference', join(installed(), 'reference')], {
      cwd: project,
      env: cleanEnv({ PATH: `${dirname(process.execPath)}:${process.env.PATH}` }),
      maxBuffer: 64 * 1024 * 1024,
    });
    assert.match(stdout, /mutation score: 10 of 10 broken copies caught \(100 %\); the reference passes every round and receiver check/);
  });

  it("the guide's TypeScript app passes every fault round", async () => {
    await writeFile(join(project, 'app.ts'), blockOf('ts'));
    const ran = await contractTests(project, ['consumer', '--faults', 'all', '--report-dir', 'reports-ts', '--', 'node', 'app.ts']);
    assert.equal(ran.code, 0, `${ran.stdout}\n${ran.stderr}`);
    assert.match(ran.stdout.split('\n')[0]!, /^consumer contract tests passed: /);
  });

  it.skipIf(skipPython)("the guide's Python quick start, from the packed wheel, keeps the contract", async () => {
    const wheel = readdirSync(pythonReleaseDir).find((file) => file.endsWith('.whl'));
    assert.ok(wheel, 'no wheel in dist/release/python: npm run release:pack');
    const venv = join(project, '.venv');
    await run(toolchain.python!, ['-m', 'venv', '--without-pip', venv], { env: cleanEnv() });
    await run(
      venvPython,
      ['-m', 'pip', '--python', join(venv, 'bin', 'python'), 'install', '--quiet', '--disable-pip-version-check', join(pythonReleaseDir, wheel)],
      {
        env: cleanEnv(),
        maxBuffer: 16 * 1024 * 1024,
      },
    );
    await writeFile(join(project, 'quickstart.py'), blockOf('python'));
    const ran = await contractTests(project, ['consumer', '--report-dir', 'reports-python', '--', '.venv/bin/python', 'quickstart.py']);
    assert.equal(ran.code, 0, `${ran.stdout}\n${ran.stderr}`);
    const report = JSON.parse(await readFile(join(project, 'reports-python', 'report.json'), 'utf8')) as {
      usage: { operations: { operationId: string; exercised: string[] }[] }[];
    };
    const operations = Object.fromEntries(report.usage[0]!.operations.map((o) => [o.operationId, o.exercised]));
    assert.deepEqual(operations, { listAccounts: ['200'], getAccount: ['404'] });
  });
});
