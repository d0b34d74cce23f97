// The command as a user meets it: --help lists every option; a bad option or value is one line and the usage, exit 2,
// no stack trace; an unreachable server and a missing Python are setup problems (exit 2) that say what is wrong.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { machineNode, skipWhenMissing } from '@aggregation/test-support';
import { afterAll, beforeAll, test } from 'vitest';
import { reportDirOf } from '../src/run.ts';

const cli = join(import.meta.dirname, '..', 'src', 'cli.ts');
let cwd: string;

beforeAll(async () => {
  cwd = await mkdtemp(join(tmpdir(), 'contract-cli-'));
});
afterAll(() => rm(cwd, { recursive: true, force: true }));

async function command(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  // As a CI template leaves them: set, but empty.
  return promisify(execFile)(process.execPath, [cli, ...args], { cwd, env: { ...process.env, AGGREGATION_BASE_URL: '', AGGREGATION_TOKEN: '' } }).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (error: { code: number; stdout: string; stderr: string }) => ({ code: error.code, stdout: error.stdout, stderr: error.stderr }),
  );
}

test('--help prints the usage and every option', async () => {
  const { code, stdout } = await command('--help');
  assert.equal(code, 0);
  assert.match(stdout, /^Usage: aggregation-contract-tests \[options\]/);
  for (const option of [
    '--base-url',
    '--token',
    '--only',
    '--quick',
    '--seed',
    '--max-examples',
    '--workers',
    '--report-dir',
    '--min-coverage',
    '--webhook-wait',
    '--python',
    '--cache-dir',
  ]) {
    assert.match(stdout, new RegExp(`\\n  ${option}\\b`), option);
  }
  assert.match(stdout, /Exit codes: 0 passed; 1 the server broke the contract/);
});

for (const [args, said] of [
  [['--bogus'], /^error: unknown option '--bogus'$/],
  [
    ['--only', 'schemathesis,fuzz'],
    /^error: option '--only <suites>' argument 'schemathesis,fuzz' is invalid\. choose from behaviour, proxy, schemathesis, arazzo/,
  ],
  [['--min-coverage', '120'], /argument '120' is invalid\. a percentage from 0 to 100\.$/],
  [['--seed', '7,x'], /--seed takes numbers or "random", comma-separated; got "x"$/],
  [['--webhook-wait', '0'], /--webhook-wait takes a whole number from 1 to 3600\.$/],
  [['--base-url', 'localhost:3000'], /an absolute http or https URL/],
  [['extra'], /^error: too many arguments/],
] as const) {
  test(`${args.join(' ')}: one line saying what is wrong, then the usage, exit 2`, async () => {
    const { code, stderr } = await command(...args);
    assert.equal(code, 2);
    const [first, ...rest] = stderr.split('\n');
    assert.match(first!, said);
    assert.match(rest.join('\n'), /Usage: aggregation-contract-tests \[options\]/);
    assert.doesNotMatch(stderr, /\n\s+at /, 'no stack trace');
  });
}

/** A port nothing listens on: one the system just gave out and took back. */
async function closedPort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

test('an unreachable server is a setup problem that names it', async () => {
  const port = await closedPort();
  const { code, stderr } = await command('--base-url', `http://127.0.0.1:${port}`, '--only', 'behaviour');
  assert.equal(code, 2);
  assert.match(stderr, new RegExp(`^aggregation-contract-tests: cannot reach http://127\\.0\\.0\\.1:${port}: connect ECONNREFUSED`));
  assert.doesNotMatch(stderr, /\n\s+at /);
});

// The built command on the machine's Node.js, as an installed copy runs there: without --base-url it starts
// @aggregation/server (its built dist/), which needs a newer Node.js than the command itself.
const machine = machineNode();
const skipMachineNode = skipWhenMissing("the built command on the machine's Node.js", !machine && 'no node on PATH besides node_modules/.bin');

test.skipIf(skipMachineNode)("a server that cannot load on the machine's older Node.js is a setup problem, one line, exit 2", async (t) => {
  const { stdout: version } = await promisify(execFile)(machine!, ['--version']);
  if (Number(version.trim().slice(1).split('.')[0]) >= 24) return t.skip(`the machine's Node.js is ${version.trim()}`);
  const { code, stderr } = await promisify(execFile)(machine!, [join(import.meta.dirname, '..', 'dist', 'cli.js'), '--only', 'behaviour'], {
    cwd,
  }).then(
    () => ({ code: 0, stderr: '' }),
    (error: { code: number; stderr: string }) => error,
  );
  assert.equal(code, 2, stderr);
  assert.match(stderr, /^aggregation-contract-tests: @aggregation\/server cannot start here: .*Node\.js 24.* Pass --base-url <url>/);
  assert.equal(stderr.trim().split('\n').length, 1, stderr);
});

test('Schemathesis without Python is a setup problem that says which', async () => {
  const { code, stderr } = await command('--base-url', 'http://127.0.0.1:9', '--python', '/nonexistent/python3');
  assert.equal(code, 2);
  assert.match(stderr, /Schemathesis needs Python 3\.11 or newer with venv, and \/nonexistent\/python3 was not found/);
  assert.match(stderr, /leave Schemathesis out with --only behaviour,proxy,arazzo/);
});

test("the report directory is the working directory's contract-reports, never inside node_modules", () => {
  assert.equal(reportDirOf('contract-reports', '/work/app'), '/work/app/contract-reports');
  assert.throws(() => reportDirOf('node_modules/x', '/work/app'), /inside node_modules/);
});
