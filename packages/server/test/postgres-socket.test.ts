// DATABASE_URL naming a Unix socket directory (`postgres://user@/database?host=/run/postgresql&port=5432`), as a
// server beside its database is given: the pool, the shared reads and the change feed all connect through it.
import assert from 'node:assert/strict';
import pg from 'pg';
import { test } from 'vitest';
import { changesSynced } from '../src/storage/store.ts';
import { eventually, servedSuite, testApp } from './helpers/harness.ts';
import { describeUnless, storeKinds } from './helpers/stores.ts';

const postgres = (await storeKinds()).find((kind) => kind.name === 'postgres')!;
const tcpUrl = postgres.skip ? undefined : (await postgres.location()).url!;

/** The same database through the server's first socket directory, or why there is none to reach from here. */
async function socketUrlOf(url: string): Promise<string | { skip: string }> {
  const parsed = new URL(url);
  if (!['127.0.0.1', 'localhost', '[::1]'].includes(parsed.hostname)) return { skip: 'the database is on another machine' };
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ dirs: string; port: string }>(
      "SELECT current_setting('unix_socket_directories') AS dirs, current_setting('port') AS port",
    );
    const dir = rows[0]!.dirs.split(',')[0]!.trim();
    if (!dir.startsWith('/')) return { skip: 'the database listens on no socket directory' };
    const user = encodeURIComponent(decodeURIComponent(parsed.username));
    return `postgres://${user}@${parsed.pathname}?host=${encodeURIComponent(dir)}&port=${rows[0]!.port}`;
  } finally {
    await client.end();
  }
}

const socket = tcpUrl ? await socketUrlOf(tcpUrl) : undefined;
const skip = postgres.skip || (typeof socket === 'object' ? socket.skip : false);

describeUnless(skip, 'PostgreSQL through a Unix socket', () => {
  const suite = servedSuite(() => ({ databaseUrl: socket as string }));

  test('keeps reads, and a payment made through a process on TCP makes them stale at once', async () => {
    const overTcp = testApp({ databaseUrl: tcpUrl! });
    try {
      const { token, accounts } = await overTcp.enroll();
      const balances = `/accounts/${accounts[0].id}/balances`;
      // Nothing is replayed until the change feed listens and has heard the enrollment: a loaded machine can delay both.
      await eventually(() => changesSynced(suite.running.app.store));
      const first = await suite.http('GET', balances, { token });
      assert.equal(first.status, 200);
      const hits = suite.running.app.readCache!.hits;
      assert.deepEqual((await suite.http('GET', balances, { token })).body, first.body);
      assert.equal(suite.running.app.readCache!.hits, hits + 1, 'the second read is replayed: the change feed listens through the socket');
      const paid = await overTcp.call('POST', `/accounts/${accounts[0].id}/payments`, {
        token,
        json: { amount: '5.00', memo: 'Through TCP', payee: { scheme: 'zelle', address: 'jane.doe@example.com', name: 'Jane Doe', type: 'person' } },
      });
      assert.equal(paid.status, 202, paid.text);
      const after = await suite.http('GET', balances, { token });
      assert.equal(Math.round(Number(after.body.available) * 100), Math.round(Number(first.body.available) * 100) - 500);
    } finally {
      await overTcp.close();
    }
  });
});
