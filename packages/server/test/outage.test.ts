// A database that cannot be reached answers 503 service_unavailable with Retry-After, in the
// error shape, and the server recovers by itself once the database is back.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import pg from 'pg';
import { afterAll, describe, test } from 'vitest';
import { openStore } from '../src/index.ts';
import { eventually, type Reply, testApp } from './helpers/harness.ts';
import { testPostgres } from './helpers/postgres.ts';
import { describeUnless } from './helpers/stores.ts';
import { tcpProxy } from './helpers/tcp-proxy.ts';

const payee = { scheme: 'zelle', address: 'jane.doe@example.com', name: 'Jane Doe', type: 'person' };

function assertUnavailable(reply: Reply, what: string): void {
  assert.equal(reply.status, 503, `${what}: ${reply.text}`);
  assert.equal(reply.body.error.code, 'service_unavailable', what);
  assert.ok(Number(reply.headers.get('retry-after')) >= 1, `${what}: Retry-After`);
}

const postgres = await testPostgres();
afterAll(() => postgres.stop());

describeUnless(postgres.skip, 'PostgreSQL unreachable', () => {
  test('requests answer 503 while the database is unreachable, then the server recovers by itself', async () => {
    const url = new URL(await postgres.database());
    const proxy = await tcpProxy(url.hostname, Number(url.port || 5432));
    url.hostname = '127.0.0.1';
    url.port = String(proxy.port);
    const errors: unknown[] = [];
    const t = testApp({ databaseUrl: url.toString(), logError: (error) => errors.push(error) });
    try {
      const { token, accounts } = await t.enroll();
      const checking = accounts[0];
      await proxy.cut();
      assertUnavailable(await t.call('GET', '/accounts', { token }), 'GET /accounts');
      assertUnavailable(await t.call('GET', `/accounts/${checking.id}/transactions?count=5`, { token }), 'GET transactions');
      assertUnavailable(
        await t.call('POST', `/accounts/${checking.id}/payments`, { token, json: { amount: '1', memo: 'outage', payee } }),
        'POST payment',
      );
      assertUnavailable(await t.call('POST', '/sandbox/enrollments', { json: { username: 'username', password: 'password' } }), 'enroll');
      await proxy.restore();
      await eventually(async () => (await t.call('GET', '/accounts', { token })).status === 200);
      const paid = await t.call('POST', `/accounts/${checking.id}/payments`, { token, json: { amount: '1', memo: 'after', payee } });
      assert.equal(paid.status, 202, paid.text);
      assert.ok(errors.length > 0, 'the outage is logged');
    } finally {
      await t.close();
      await proxy.close();
    }
  });

  test('connections killed under the server answer 503 or are replaced, never 500', async () => {
    const url = await postgres.database();
    const t = testApp({ databaseUrl: url, logError: () => undefined });
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    try {
      const { token } = await t.enroll();
      const statuses = new Set<number>();
      for (let round = 0; round < 3; round++) {
        const reads = Array.from({ length: 10 }, () => t.call('GET', '/accounts', { token }));
        await admin.query(
          "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND application_name = 'aggregation-server'",
        );
        for (const reply of await Promise.all(reads)) statuses.add(reply.status);
      }
      assert.deepEqual(
        [...statuses].filter((status) => status !== 200 && status !== 503),
        [],
        `statuses ${[...statuses]}`,
      );
      await eventually(async () => (await t.call('GET', '/accounts', { token })).status === 200);
    } finally {
      await admin.end();
      await t.close();
    }
  });
});

describe('SQLite file locked by another process', () => {
  test('a write that cannot get the lock in time answers 503; reads go on; writes resume once it is released', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'server-outage-'));
    const path = join(dir, 'sandbox.sqlite');
    const store = openStore({ path, busyTimeoutMs: 100 });
    const t = testApp({ store, logError: () => undefined });
    const other = new DatabaseSync(path);
    try {
      const { token, accounts } = await t.enroll();
      const checking = accounts[0];
      other.exec('BEGIN IMMEDIATE');
      assertUnavailable(
        await t.call('POST', `/accounts/${checking.id}/payments`, { token, json: { amount: '1', memo: 'locked', payee } }),
        'POST payment',
      );
      assert.equal((await t.call('GET', '/accounts', { token })).status, 200);
      other.exec('COMMIT');
      const paid = await t.call('POST', `/accounts/${checking.id}/payments`, { token, json: { amount: '1', memo: 'after', payee } });
      assert.equal(paid.status, 202, paid.text);
    } finally {
      if (other.isTransaction) other.exec('ROLLBACK');
      other.close();
      await t.close();
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
