// The README's examples, run as printed (`npx tsx examples/<name>.ts`) against the sandbox server, with the
// environment they name, on the machine's own Node.js (the oldest the client supports, 20.19, runs them as well as
// 24; the project's Node.js stands in where the machine has none): each exits cleanly and prints what it promises.
import assert from 'node:assert/strict';
import { execFile, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { type RunningServer, startServer } from '@aggregation/server';
import { exitWithParent, machineNode, stopsWithThisProcess } from '@aggregation/test-support';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { signWebhook } from '../src/index.ts';

const examples = join(dirname(fileURLToPath(import.meta.url)), '..', 'examples');
/** What `npx tsx` runs: tsx's command, on the Node.js on PATH. */
const tsx = createRequire(import.meta.url).resolve('tsx/cli');
const node = machineNode() ?? process.execPath;
let server: RunningServer;
let env: NodeJS.ProcessEnv;

async function runExample(name: string): Promise<string> {
  const { stdout } = await promisify(execFile)(node, [tsx, join(examples, name)], { env });
  return stdout;
}

beforeAll(async () => {
  server = await startServer({ port: 0, hostname: '127.0.0.1', webhooks: { autostart: false }, logError: () => {} });
  const response = await fetch(`${server.url}/sandbox/enrollments`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'username', password: 'password' }),
  });
  const enrollment = (await response.json()) as { access_token: string; accounts: { id: string; links: { payments?: string } }[] };
  const payer = enrollment.accounts.find((account) => account.links.payments)!;
  env = { ...process.env, AGGREGATION_TOKEN: enrollment.access_token, AGGREGATION_BASE_URL: server.url, ACCOUNT_ID: payer.id };
});
afterAll(() => server?.close());

describe(`examples run as printed, on Node.js ${(await promisify(execFile)(node, ['--version'])).stdout.trim()}`, () => {
  it('list-accounts.ts lists every account', async () => {
    const lines = (await runExample('list-accounts.ts')).trim().split('\n');
    assert.equal(lines.length, 3);
    assert.ok(lines.some((line) => line.endsWith(' payments')));
  });

  it('page-transactions.ts prints the last 30 days of transactions', async () => {
    const lines = (await runExample('page-transactions.ts')).trim().split('\n');
    assert.ok(lines.length > 5, `${lines.length} transactions`);
    const oldest = new Date(Date.now() - 31 * 86_400_000).toISOString().slice(0, 10);
    for (const line of lines) assert.ok(line.slice(0, 10) >= oldest, line);
  });

  it('pay-with-mfa.ts sends a payment', async () => {
    assert.match(await runExample('pay-with-mfa.ts'), /^Sent pay_\S+ \S+/);
  });

  it('sync-transactions.ts and handle-errors.ts exit cleanly', async () => {
    await runExample('sync-transactions.ts');
    assert.match(await runExample('handle-errors.ts'), /\d/);
  });

  it('rate-limits.ts meets a 429 sent once, then is served after the retry; a 404 is a NotFoundError', async () => {
    const response = await fetch(`${server.url}/sandbox/enrollments`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'rate_limited.2', password: 'password' }),
    });
    const { access_token: token } = (await response.json()) as { access_token: string };
    const example = promisify(execFile)(process.execPath, [...exitWithParent, join(examples, 'rate-limits.ts')], {
      env: { ...process.env, AGGREGATION_TOKEN: token, AGGREGATION_BASE_URL: server.url, AGGREGATION_LOG: '' },
    });
    stopsWithThisProcess(example.child);
    const { stdout, stderr } = await example;
    const lines = stdout.trim().split('\n');
    assert.deepEqual(
      lines.filter((line) => !line.startsWith('GET ')),
      ['429 rate_limited: retry in 1 s', '3 accounts', `404 not_found (request id ${/request id (req_\w+)\)$/.exec(lines.at(-1)!)?.[1]})`],
    );
    // The log, on the console at the level the example chose: each call (info), the retry of the second (warn, on
    // stderr), without the token.
    const logged = (text: string) =>
      text
        .trim()
        .split('\n')
        .filter((line) => line.startsWith('GET '))
        .map((line) => line.replace(/ in \d+ ms/, '').replace(/ \(request id req_\w+\)/, ''));
    assert.deepEqual(logged(stdout), ['GET /accounts 429', 'GET /accounts 200 after 1 retry', 'GET /accounts/acc_missing 404']);
    assert.deepEqual(logged(stderr), ['GET /accounts 429; retrying in 1000 ms (retry 1)']);
    assert.ok(!stdout.includes(token) && !stderr.includes(token));
  });

  it('webhook-hono.ts listens and acknowledges a signed event', async () => {
    const child = spawn(node, [tsx, join(examples, 'webhook-hono.ts')], {
      env: { ...env, PORT: '0', WEBHOOK_SECRETS: 'whsec_example' },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    try {
      // The first line it prints, or nothing when it exits without listening.
      const printed = await Promise.race([once(child.stdout!, 'data').then(([chunk]) => String(chunk)), once(child, 'exit').then(() => '')]);
      const url = /Listening on (\S+)/.exec(printed)?.[1];
      assert.ok(url, `it did not listen: ${printed}`);
      const body = JSON.stringify({ id: 'evt_1', type: 'webhook.test', timestamp: new Date().toISOString(), payload: {} });
      const signed = await fetch(url, { method: 'POST', body, headers: { 'Service-Signature': await signWebhook(body, 'whsec_example') } });
      assert.equal(signed.status, 204);
      const forged = await fetch(url, { method: 'POST', body, headers: { 'Service-Signature': await signWebhook(body, 'whsec_other') } });
      assert.equal(forged.status, 400);
    } finally {
      child.kill();
    }
  });
});
