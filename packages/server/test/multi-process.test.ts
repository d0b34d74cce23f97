// Two server processes (`node src/main.ts`, as deployed behind a load balancer) on one
// PostgreSQL database, over real HTTP: what one writes the other reads at once, one
// Idempotency-Key makes one payment whichever process each request reaches, and every event
// is delivered once although both processes run a delivery worker.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { afterAll, beforeAll, test } from 'vitest';
import { describeStorage } from '../src/storage/index.ts';
import { startListening } from './helpers/child.ts';
import { type Caller, caller, eventually, type Receiver, receiver } from './helpers/harness.ts';
import { testPostgres } from './helpers/postgres.ts';
import { describeUnless } from './helpers/stores.ts';

const postgres = await testPostgres();
afterAll(() => postgres.stop());

const payee = { scheme: 'zelle', address: 'jane.doe@example.com', name: 'Jane Doe', type: 'person' };

interface Child {
  url: string;
  output: string[];
  stop(): Promise<void>;
}

/** Starts `src/main.ts` on a free port and resolves with its URL once it listens. */
async function startProcess(databaseUrl: string): Promise<Child> {
  const { child, url, output, exited } = await startListening('src/main.ts', {
    cwd: join(import.meta.dirname, '..'),
    // Behind a load balancer every process has the same public URL: links do not depend on which one answers.
    env: { ...process.env, DATABASE_URL: databaseUrl, PORT: '0', HOST: '127.0.0.1', PUBLIC_URL: 'http://sandbox.test', ACCESS_LOG: 'off' },
  });
  return {
    url,
    output,
    async stop() {
      if (child.exitCode !== null) return;
      child.kill('SIGTERM');
      await exited;
    },
  };
}

describeUnless(postgres.skip, 'two server processes on one PostgreSQL database', { timeout: 120_000 }, () => {
  let databaseUrl: string;
  let a: Child;
  let b: Child;
  let viaA: Caller;
  let viaB: Caller;
  let token: string;
  let checking: { id: string };
  let hook: Receiver;
  let secrets: string[] = [];

  beforeAll(async () => {
    databaseUrl = await postgres.database();
    // Both start at once on an empty database: one migrates, the other waits for it.
    [a, b] = await Promise.all([startProcess(databaseUrl), startProcess(databaseUrl)]);
    viaA = caller((request) => fetch(request), a.url);
    viaB = caller((request) => fetch(request), b.url);
    const enrolled = await viaA('POST', '/sandbox/enrollments', { json: { username: 'username', password: 'password' } });
    assert.equal(enrolled.status, 201, enrolled.text);
    token = enrolled.body.access_token;
    checking = enrolled.body.accounts[0];
    hook = await receiver(() => secrets);
  });
  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
    await hook?.close();
  });

  test('each says which database it uses, without the password', () => {
    for (const child of [a, b]) {
      const line = child.output.find((text) => text.startsWith('Listening on'))!;
      assert.ok(line.includes(`(database: ${describeStorage({ url: databaseUrl })})`), line);
    }
    assert.equal(describeStorage({ url: 'postgres://app:s3cret@db.internal:5432/sandbox' }), 'PostgreSQL postgres://app:***@db.internal:5432/sandbox');
  });

  test('a payment made through one process is read through the other at once', async () => {
    const before = await viaB('GET', `/accounts/${checking.id}/balances`, { token });
    await viaB('GET', `/accounts/${checking.id}/payments`, { token });
    const paid = await viaA('POST', `/accounts/${checking.id}/payments`, { token, json: { amount: '12.34', memo: 'Lunch', payee } });
    assert.equal(paid.status, 202, paid.text);
    const one = await viaB('GET', `/accounts/${checking.id}/payments/${paid.body.id}`, { token });
    assert.deepEqual(one.body, paid.body);
    const list = await viaB('GET', `/accounts/${checking.id}/payments`, { token });
    assert.equal(list.body[0].id, paid.body.id);
    const after = await viaB('GET', `/accounts/${checking.id}/balances`, { token });
    assert.equal(Math.round(Number(before.body.ledger) * 100) - 1234, Math.round(Number(after.body.ledger) * 100));
  });

  test('24 concurrent payments with one Idempotency-Key, split across both, make exactly one payment', async () => {
    const count = async () => (await viaA('GET', `/accounts/${checking.id}/payments`, { token })).body.length as number;
    const before = await count();
    const body = { amount: '7.77', memo: 'Concurrent', payee };
    const replies = await Promise.all(
      Array.from({ length: 24 }, (_, i) =>
        (i % 2 ? viaA : viaB)('POST', `/accounts/${checking.id}/payments`, { token, json: body, headers: { 'idempotency-key': 'two-processes' } }),
      ),
    );
    assert.deepEqual(new Set(replies.map((reply) => reply.status)), new Set([202]));
    assert.equal(new Set(replies.map((reply) => reply.body.id)).size, 1);
    assert.equal((await count()) - before, 1);
    const transactions = (await viaB('GET', `/accounts/${checking.id}/transactions?count=50`, { token })).body;
    assert.equal(transactions.filter((txn: { amount: string }) => txn.amount === '-7.77').length, 1);
  });

  test('events fired through both processes are each delivered exactly once', async () => {
    const settings = await viaA('PUT', '/sandbox/webhook', { token, json: { url: hook.url } });
    secrets = settings.body.secrets.map((secret: { secret: string }) => secret.secret);
    // The other process signs with the same secrets.
    assert.deepEqual((await viaB('GET', '/sandbox/webhook', { token })).body, settings.body);
    const fired = await Promise.all(
      Array.from({ length: 30 }, (_, i) => (i % 2 ? viaA : viaB)('POST', '/sandbox/events', { token, json: { type: 'webhook.test' } })),
    );
    const ids = new Set(fired.map((reply) => reply.body.id as string));
    assert.equal(ids.size, 30);
    await hook.waitFor(30, (event) => ids.has(event.id), 15_000);
    const delivered = async () => {
      const log = await viaB('GET', '/sandbox/webhook/deliveries', { token });
      return (log.body as { event_id: string; status: string; attempts: number }[]).filter((entry) => ids.has(entry.event_id));
    };
    await eventually(async () => (await delivered()).every((entry) => entry.status === 'delivered'));
    // Both workers poll at least every second: give a second pass the chance to send anything twice.
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    const received = hook.events.filter((entry) => ids.has(entry.event.id)).map((entry) => entry.event.id);
    assert.equal(received.length, 30, `received ${received.length} deliveries of 30 events`);
    assert.deepEqual(new Set(received), ids);
    assert.deepEqual(hook.rejected, []);
    assert.ok((await delivered()).every((entry) => entry.attempts === 1));
  });
});
