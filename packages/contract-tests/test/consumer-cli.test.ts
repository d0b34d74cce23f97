// The consumer commands as an integrator meets them, against the sandbox started here: the verdict is the first line
// of standard output, the reports name each operation; bad input (a command that does not exist, one that hangs, a
// body that is not JSON, a receiver that does not listen) is one line, never a stack trace, and leaves no process.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, test } from 'vitest';
import { startReceiver } from '../reference/receiver.js';

const cli = join(import.meta.dirname, '..', 'src', 'cli.ts');
const app = join(import.meta.dirname, '..', 'reference', 'app.js');
let cwd: string;

beforeAll(async () => {
  cwd = await mkdtemp(join(tmpdir(), 'consumer-cli-'));
});
afterAll(() => rm(cwd, { recursive: true, force: true }));

type Ran = { code: number; stdout: string; stderr: string };

function command(...args: string[]): Promise<Ran> {
  return promisify(execFile)(process.execPath, [cli, ...args], { cwd, env: { ...process.env, GITHUB_STEP_SUMMARY: '' } }).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (error: Ran) => ({ code: error.code, stdout: error.stdout, stderr: error.stderr }),
  );
}

/** A port nothing listens on now. */
async function freePort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

const noStackTrace = (ran: Ran) => assert.doesNotMatch(`${ran.stdout}${ran.stderr}`, /\n\s+at .+:\d+:\d+/);

test('the reference integration passes: the verdict first, a junit testcase per operation used, summary.md and report.json', async () => {
  const ran = await command('consumer', '--report-dir', 'clean', '--', process.execPath, app);
  assert.equal(ran.code, 0, ran.stdout + ran.stderr);
  assert.match(ran.stdout.split('\n')[0]!, /^consumer contract tests passed: the command passed and its \d+ requests kept the description$/);
  const junit = await readFile(join(cwd, 'clean', 'junit.xml'), 'utf8');
  for (const operation of ['GET /accounts', 'GET /accounts/{account_id}/balances', 'POST /accounts/{account_id}/payments'])
    assert.ok(junit.includes(`name="${operation}"`), operation);
  const summary = await readFile(join(cwd, 'clean', 'summary.md'), 'utf8');
  assert.match(summary, /^# consumer contract tests passed/);
  assert.match(summary, /2020-10-12: 5 of 15 operations used/);
  const report = JSON.parse(await readFile(join(cwd, 'clean', 'report.json'), 'utf8'));
  assert.equal(report.mode, 'consumer');
  assert.equal(report.runs[0].round, 'clean');
});

test('a command that does not exist: exit 2, one line', async () => {
  const ran = await command('consumer', '--report-dir', 'missing', '--', 'no-such-command-here');
  assert.equal(ran.code, 2);
  assert.equal(ran.stdout.split('\n')[0], 'consumer contract tests could not run: the command no-such-command-here could not start: not found');
  noStackTrace(ran);
  assert.match(await readFile(join(cwd, 'missing', 'summary.md'), 'utf8'), /^# consumer contract tests could not run/);
});

test('a command that hangs: ended with its whole process group after --timeout, exit 1', async () => {
  const pids = join(cwd, 'pids');
  const ran = await command(
    'consumer',
    '--timeout',
    '2s',
    '--report-dir',
    'hang',
    '--',
    'sh',
    '-c',
    `sleep 600 & echo $! > ${pids}; echo $$ >> ${pids}; wait`,
  );
  assert.equal(ran.code, 1);
  assert.match(
    ran.stdout.split('\n')[0]!,
    /^consumer contract tests failed: command: the command passed \(clean run\): the command did not end within 2 s \(--timeout\); its process group was ended$/,
  );
  noStackTrace(ran);
  for (const pid of (await readFile(pids, 'utf8')).trim().split('\n').map(Number))
    assert.throws(() => process.kill(pid, 0), { code: 'ESRCH' }, `process ${pid} is still running`);
});

test('a body that is not JSON: the request fails its check in one line', async () => {
  const script = `fetch(process.env.AGGREGATION_BASE_URL + '/accounts/acc_1/payments', { method: 'POST', body: 'amount=12.50', headers: { authorization: 'Basic ' + btoa(process.env.AGGREGATION_TOKEN + ':'), 'content-type': 'application/json', 'idempotency-key': 'k1' } }).then((r) => r.text())`;
  const ran = await command('consumer', '--report-dir', 'nonjson', '--', process.execPath, '-e', script);
  assert.equal(ran.code, 1);
  assert.match(
    ran.stdout.split('\n')[0]!,
    /^consumer contract tests failed: requests 2020-10-12: POST \/accounts\/\{account_id\}\/payments: clean run: POST \/accounts\/acc_1\/payments: the body is not JSON: "amount=12\.50"$/,
  );
  noStackTrace(ran);
});

test('webhooks: the reference receiver passes every check; one that does not listen is exit 2 in one line', async () => {
  const secret = 'whsec_reference_receiver_check';
  const receiver = await startReceiver({ secrets: [secret] });
  try {
    const ran = await command('webhooks', '--url', receiver.url, '--secret', secret, '--report-dir', 'receiver');
    assert.equal(ran.code, 0, ran.stdout);
    assert.match(ran.stdout.split('\n')[0]!, /^webhook receiver checks passed: 24 of 24 checks$/);
  } finally {
    await receiver.close();
  }
  const ran = await command('webhooks', '--url', receiver.url, '--secret', secret, '--report-dir', 'gone');
  assert.equal(ran.code, 2);
  assert.equal(
    ran.stdout.split('\n')[0],
    `webhook receiver checks could not run: the receiver at ${receiver.url} does not listen (connection refused)`,
  );
  noStackTrace(ran);
});

test('--webhook-url: the command gets the sandbox secret, and its receiver the checks while it runs; --min-coverage counts the operations used', async () => {
  // A receiver in the command, verifying with the secret handed to it, that ends the command after the 24 checks.
  const script = join(cwd, 'serve-receiver.mjs');
  await writeFile(
    script,
    `import { createServer } from 'node:http';
import { verifyWebhook } from '@aggregation/client';
let requests = 0;
const server = createServer((req, res) => {
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', async () => {
    try {
      await verifyWebhook(Buffer.concat(chunks), req.headers['service-signature'], [process.env.AGGREGATION_WEBHOOK_SECRET]);
      res.writeHead(204).end();
    } catch {
      res.writeHead(400).end();
    }
    if (++requests === 24) server.close();
  });
});
server.listen(Number(process.argv[2]), '127.0.0.1');
`,
  );
  // It imports the client as an integrator's project would, from a node_modules beside it.
  await symlink(join(import.meta.dirname, '..', '..', '..', 'node_modules'), join(cwd, 'node_modules'));
  const port = await freePort();
  const ran = await command(
    'consumer',
    '--webhook-url',
    `http://127.0.0.1:${port}/webhooks`,
    '--min-coverage',
    '50',
    '--report-dir',
    'hooks',
    '--',
    process.execPath,
    script,
    String(port),
  );
  assert.equal(ran.code, 1, ran.stdout);
  const report = JSON.parse(await readFile(join(cwd, 'hooks', 'report.json'), 'utf8'));
  const receiver = report.testsuites.find((s: { suite: string }) => s.suite === 'receiver');
  assert.equal(receiver.testcases.length, 24);
  assert.ok(receiver.testcases.every((t: { status: string }) => t.status === 'passed'));
  // The command sent no request: none of the operations was used, under the 50 % asked for.
  assert.match(
    ran.stdout.split('\n')[0]!,
    /^consumer contract tests failed: coverage 2020-10-12: coverage: at least 50 % of the operations used: 0 of 15 operations used \(0\.0 %\), under --min-coverage 50$/,
  );
});

test('--faults mfa on the sandbox: the challenge is real; a command that approves it and sends the same request pays once, and the report says so', async () => {
  const script = join(cwd, 'approve-mfa.mjs');
  await writeFile(
    script,
    `const base = process.env.AGGREGATION_BASE_URL;
const headers = { authorization: 'Basic ' + btoa(process.env.AGGREGATION_TOKEN + ':'), 'content-type': 'application/json' };
const call = async (method, path, body, more = {}) => {
  const answer = await fetch(base + path, { method, headers: { ...headers, ...more }, ...(body ? { body: JSON.stringify(body) } : {}) });
  return { status: answer.status, json: await answer.json() };
};
const [account] = (await call('GET', '/accounts')).json;
const payment = { amount: '5.00', memo: 'rent', payee: { scheme: 'zelle', address: 'jane@example.org', name: 'Jane Doe', type: 'person' } };
const key = { 'idempotency-key': 'approve-mfa-1' };
const challenged = await call('POST', '/accounts/' + account.id + '/payments', payment, key);
if (challenged.status === 200) {
  await call('POST', '/sandbox/connect_tokens/' + challenged.json.connect_token + '/approve');
  const paid = await call('POST', '/accounts/' + account.id + '/payments', payment, key);
  process.exit(paid.status === 202 ? 0 : 1);
}
`,
  );
  const ran = await command('consumer', '--faults', 'mfa', '--report-dir', 'mfa', '--', process.execPath, script);
  assert.equal(ran.code, 0, ran.stdout + ran.stderr);
  const report = JSON.parse(await readFile(join(cwd, 'mfa', 'report.json'), 'utf8'));
  const [note] = report.testsuites.find((s: { suite: string }) => s.suite === 'faults').notes;
  assert.match(note, /^mfa: the round's enrollment is the sandbox test user mfa\.payments/);
  assert.match(
    note,
    /1 challenges answered \(POST \/accounts\/acc_\w+\/payments\).* approved 1 through the sandbox, completed 1 .* the command passed/,
  );
});
