// Two server processes (`node src/main.ts`, as deployed behind a load balancer) on one
// PostgreSQL database, over real HTTP: what one writes the other reads at once (its kept reads
// of that enrollment go stale, the others' stay replayed), one Idempotency-Key makes one payment
// whichever process each request reaches, and every event is delivered once although both
// processes run a delivery worker. Then two stores on one database, as two processes see it:
// the scoped revisions in the database, their notifications, and the barrier that makes a write
// acknowledged by one seen by the other's next read however late its notification travels.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, test } from 'vitest';
import { openStore } from '../src/index.ts';
import { describeStorage } from '../src/storage/index.ts';
import { type ActivityShown, type ChangeScope, changesSynced, type Store } from '../src/storage/store.ts';
import { startListening } from './helpers/child.ts';
import { type Caller, caller, eventually, type Receiver, type Reply, receiver } from './helpers/harness.ts';
import { testPostgres } from './helpers/postgres.ts';
import { describeUnless } from './helpers/stores.ts';
import { tcpProxy } from './helpers/tcp-proxy.ts';

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
    // The access log says which answers were replayed.
    env: { ...process.env, DATABASE_URL: databaseUrl, PORT: '0', HOST: '127.0.0.1', PUBLIC_URL: 'http://sandbox.test', ACCESS_LOG: 'on' },
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

describeUnless(postgres.skip, 'two server processes on one PostgreSQL database', () => {
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

  test("a payment through one process makes the other's kept reads of that enrollment stale at once, and no other's", async () => {
    const other = await viaA('POST', '/sandbox/enrollments', { json: { username: 'username', password: 'password' } });
    const otherToken = other.body.access_token as string;
    const otherBalances = `/accounts/${other.body.accounts[0].id}/balances`;
    const balances = `/accounts/${checking.id}/balances`;
    /** Whether B's access log marks the answer as replayed (its line is written once the answer is sent). */
    const replayedByB = async (reply: Reply) => {
      const id = reply.headers.get('request-id')!;
      await eventually(() => b.output.some((line) => line.includes(id)));
      return b.output.find((line) => line.includes(id))!.endsWith('(replayed)');
    };
    const cents = (reply: Reply) => Math.round(Number(reply.body.ledger) * 100);
    for (const path of [balances, otherBalances]) {
      const t = path === balances ? token : otherToken;
      await viaB('GET', path, { token: t });
      assert.ok(await replayedByB(await viaB('GET', path, { token: t })), `${path} is kept by B`);
    }
    let ledger = cents(await viaB('GET', balances, { token }));
    // Each read follows the acknowledgement of the write at once: it must see it, whatever the notification's delay.
    for (let i = 0; i < 5; i++) {
      const paid = await viaA('POST', `/accounts/${checking.id}/payments`, { token, json: { amount: '1.01', memo: `Kept ${i}`, payee } });
      assert.equal(paid.status, 202, paid.text);
      const read = await viaB('GET', balances, { token });
      assert.equal(cents(read), ledger - 101, `read ${i} through B after the payment through A`);
      assert.equal(await replayedByB(read), false);
      ledger = cents(read);
      assert.ok(await replayedByB(await viaB('GET', otherBalances, { token: otherToken })), "the other enrollment's read stays replayed");
    }
  });

  test("a payment through one process makes the other's kept reads of its account's activity stale, and leaves the accounts and other accounts' activity replayed", async () => {
    const enrolled = await viaA('POST', '/sandbox/enrollments', { json: { username: 'username', password: 'password' } });
    const own = enrolled.body.access_token as string;
    const accounts = enrolled.body.accounts as { id: string }[];
    const payer = accounts[0]!;
    const others = accounts.slice(1);
    assert.ok(others.length > 0, 'the enrollment has other accounts');
    const stale = [`/accounts/${payer.id}/balances`, `/accounts/${payer.id}/transactions?count=100`, `/accounts/${payer.id}/payments`];
    // The accounts as resources show no balance: a payment changes none of them.
    const valid = [
      '/accounts',
      `/accounts/${payer.id}`,
      `/accounts/${payer.id}/details`,
      ...others.flatMap((other) => [`/accounts/${other.id}`, `/accounts/${other.id}/balances`, `/accounts/${other.id}/transactions?count=100`]),
    ];
    /** Whether B's access log marks the answer as replayed (its line is written once the answer is sent). */
    const replayedByB = async (reply: Reply) => {
      const id = reply.headers.get('request-id')!;
      await eventually(() => b.output.some((line) => line.includes(id)));
      return b.output.find((line) => line.includes(id))!.endsWith('(replayed)');
    };
    const kept = new Map<string, Reply>();
    for (const path of [...stale, ...valid]) {
      // A render is kept only when nothing of its enrollment committed meanwhile (the new enrollment's own
      // background writes may): read until B replays it.
      await eventually(async () => {
        const reply = await viaB('GET', path, { token: own });
        assert.equal(reply.status, 200, `${path}: ${reply.text}`);
        kept.set(path, reply);
        return replayedByB(reply);
      });
    }
    for (let i = 0; i < 2; i++) {
      const paid = await viaA('POST', `/accounts/${payer.id}/payments`, { token: own, json: { amount: '2.02', memo: `Scoped ${i}`, payee } });
      assert.equal(paid.status, 202, paid.text);
      for (const path of stale) {
        const read = await viaB('GET', path, { token: own });
        assert.equal(await replayedByB(read), false, `${path} through B is stale after the payment through A`);
        assert.notDeepEqual(read.body, kept.get(path)!.body, `${path} shows the payment`);
        kept.set(path, read);
      }
      for (const path of valid) {
        const read = await viaB('GET', path, { token: own });
        assert.ok(await replayedByB(read), `${path} through B stays replayed`);
        assert.deepEqual(read.body, kept.get(path)!.body);
      }
    }
  });

  test('a token revoked through one process is refused by the other at once', async () => {
    const enrolled = await viaA('POST', '/sandbox/enrollments', { json: { username: 'username', password: 'password' } });
    const revoked = enrolled.body.access_token as string;
    const account = `/accounts/${enrolled.body.accounts[0].id}`;
    for (let i = 0; i < 2; i++) assert.equal((await viaB('GET', account, { token: revoked })).status, 200);
    assert.equal((await viaA('DELETE', '/accounts', { token: revoked })).status, 204);
    assert.equal((await viaB('GET', account, { token: revoked })).status, 403);
    assert.equal((await viaB('POST', '/sandbox/clock/advance', { token: revoked, json: { days: 1 } })).status, 403);
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
    await hook.waitFor(30, (event) => ids.has(event.id));
    const delivered = async () => {
      const log = await viaB('GET', '/sandbox/webhook/deliveries', { token });
      return (log.body as { event_id: string; status: string; attempts: number }[]).filter((entry) => ids.has(entry.event_id));
    };
    await eventually(async () => (await delivered()).every((entry) => entry.status === 'delivered'));
    // A pass of the workers after that: one more event through each process, delivered. A claim takes the oldest due
    // deliveries first, so any of the 30 due again would have been claimed, and sent, with these or before them.
    const after = await Promise.all([viaA, viaB].map((via) => via('POST', '/sandbox/events', { token, json: { type: 'webhook.test' } })));
    const afterIds = new Set(after.map((reply) => reply.body.id as string));
    await hook.waitFor(2, (event) => afterIds.has(event.id));
    const received = hook.events.filter((entry) => ids.has(entry.event.id)).map((entry) => entry.event.id);
    assert.equal(received.length, 30, `received ${received.length} deliveries of 30 events`);
    assert.deepEqual(new Set(received), ids);
    assert.deepEqual(hook.rejected, []);
    assert.ok((await delivered()).every((entry) => entry.attempts === 1));
  });
});

describeUnless(postgres.skip, 'scoped revisions on PostgreSQL, as two processes see them', () => {
  let databaseUrl: string;
  let a: Store;
  let b: Store;
  let proxy: Awaited<ReturnType<typeof tcpProxy>>;
  let admin: pg.Client;

  beforeAll(async () => {
    databaseUrl = await postgres.database();
    const url = new URL(databaseUrl);
    // B reaches the database through a proxy that can hold what the database sends: a notification in flight.
    proxy = await tcpProxy(url.hostname, Number(url.port || 5432));
    url.hostname = '127.0.0.1';
    url.port = String(proxy.port);
    a = openStore({ url: databaseUrl });
    b = openStore({ url: url.toString() });
    await Promise.all([a.ready(), b.ready()]);
    await eventually(async () => (await changesSynced(a)) && (await changesSynced(b)));
    admin = new pg.Client({ connectionString: databaseUrl });
    await admin.connect();
  });
  afterAll(async () => {
    await admin?.end();
    await a?.close();
    await b?.close();
    await proxy?.close();
  });

  const write = (store: Store, enrollment: string, changes?: ChangeScope) =>
    store.transaction(
      (tx) => tx.idempotency.insert({ scope: enrollment, key: randomUUID(), request_hash: 'h', status: 202, response: '{}', created_at: 0 }),
      changes && { changes },
    );
  const stored = async (scope: string) =>
    Number((await admin.query('SELECT revision FROM change_scopes WHERE scope = $1', [scope])).rows[0]?.revision ?? 0);
  /** Both stores' revisions of each enrollment, once each has heard of everything committed so far. */
  const seen = async (ids: string[]) => {
    assert.deepEqual(await Promise.all([changesSynced(a), changesSynced(b)]), [true, true]);
    return ids.map((id) => [a.scopedRevision!(id), b.scopedRevision!(id)]);
  };

  test('a write counts up its enrollment in the database and every process learns it; the outbox, a rollback or no write count nothing', async () => {
    const [e1, e2] = [`enr_${randomUUID()}`, `enr_${randomUUID()}`];
    const start = await seen([e1, e2]);
    const mark = b.changeMark();
    await write(a, e1, { enrollment: e1 });
    assert.equal(await stored(e1), 1, 'counted in the writing transaction, in the database');
    const afterScoped = await seen([e1, e2]);
    assert.notEqual(afterScoped[0]![0], start[0]![0]);
    assert.notEqual(afterScoped[0]![1], start[0]![1], 'the other process learned it');
    assert.deepEqual(afterScoped[1], start[1], "another enrollment's revision is unchanged");
    // What B rendered for e2 since `mark` is still current; for e1, or for no enrollment, it may not be.
    assert.deepEqual([b.changedSince!(e2, mark), b.changedSince!(e1, mark), b.changedSince!(undefined, mark)], [false, true, true]);

    await write(b, e2, 'outbox');
    await a.transaction(async (tx) => {
      await tx.enrollments.get(e2);
    });
    await assert.rejects(
      b.transaction(async (tx) => {
        await tx.idempotency.insert({ scope: e2, key: 'k', request_hash: 'h', status: 202, response: '{}', created_at: 0 });
        throw new Error('rolled back');
      }),
    );
    assert.deepEqual(await seen([e1, e2]), afterScoped, 'the outbox, a read-only transaction and a rollback count nothing');
    assert.equal(await stored(e2), 0);

    const anyBefore = await stored('*');
    await write(b, e2);
    assert.equal(await stored('*'), anyBefore + 1, 'an unscoped write counts up every scope');
    const afterAny = await seen([e1, e2]);
    assert.notEqual(afterAny[0]![0], afterScoped[0]![0]);
    assert.notEqual(afterAny[1]![0], afterScoped[1]![0]);
  });

  test("a write scoped to one account's activity changes what reads of it or of any account's see, not of another's or of none", async () => {
    const enrollment = `enr_${randomUUID()}`;
    const [paid, other] = [`acc_${randomUUID()}`, `acc_${randomUUID()}`];
    const shown: (ActivityShown | undefined)[] = [undefined, { account: paid }, { account: other }, 'none'];
    const revisions = async () => {
      assert.equal(await changesSynced(b), true);
      return [a, b].map((store) => shown.map((activity) => store.scopedRevision!(enrollment, activity)));
    };
    const before = await revisions();
    const mark = b.changeMark();
    await write(a, enrollment, { enrollment, account: paid });
    assert.equal(await stored(`${enrollment}/${paid}`), 1, 'counted in the writing transaction, in the database');
    assert.equal(await stored(enrollment), 0);
    const after = await revisions();
    for (const [store, name] of [
      [0, 'the writer'],
      [1, 'the other process'],
    ] as const) {
      assert.notEqual(after[store]![0], before[store]![0], `${name}: reads of any account's activity`);
      assert.notEqual(after[store]![1], before[store]![1], `${name}: reads of the paying account's activity`);
      assert.equal(after[store]![2], before[store]![2], `${name}: reads of another account's activity`);
      assert.equal(after[store]![3], before[store]![3], `${name}: reads of no account's activity`);
    }
    assert.deepEqual(
      shown.map((activity) => b.changedSince!(enrollment, mark, activity)),
      [true, true, false, false],
    );
    // A write to the whole enrollment changes every read of it.
    await write(a, enrollment, { enrollment });
    const whole = await revisions();
    for (const store of [0, 1]) for (const read of [0, 1, 2, 3]) assert.notEqual(whole[store]![read], after[store]![read]);
  });

  test('a write acknowledged to one process is known to the other after its barrier, however late the notification travels', async () => {
    const [e1, e2] = [`enr_${randomUUID()}`, `enr_${randomUUID()}`];
    const [before1, before2] = [b.scopedRevision!(e1), b.scopedRevision!(e2)];
    proxy.hold();
    try {
      await write(a, e1, { enrollment: e1 });
      assert.equal(b.scopedRevision!(e1), before1, 'the notification is still on its way');
      const barrier = changesSynced(b);
      proxy.release();
      assert.equal(await barrier, true);
    } finally {
      proxy.release();
    }
    assert.notEqual(b.scopedRevision!(e1), before1, 'known once the barrier is answered');
    assert.equal(b.scopedRevision!(e2), before2);
  });

  test('the syncs asked for while a barrier is in flight, or as it is answered, share the next one', async () => {
    assert.equal(await changesSynced(b), true);
    // Barriers are pg queries of their own kind: a lone Sync, heard back through handleReadyForQuery.
    const query = pg.Client.prototype.query;
    let barriers = 0;
    pg.Client.prototype.query = function (this: pg.Client, ...args: Parameters<typeof query>) {
      if ((args[0] as { handleReadyForQuery?: unknown })?.handleReadyForQuery) barriers += 1;
      return (query as (...a: unknown[]) => unknown).apply(this, args);
    } as typeof query;
    proxy.hold();
    try {
      const first = changesSynced(b);
      const second = changesSynced(b);
      let third: Promise<boolean> | undefined;
      const thirdAsked = first.then(() => {
        third = changesSynced(b);
      });
      proxy.release();
      assert.deepEqual(await Promise.all([first, second, thirdAsked.then(() => third)]), [true, true, true]);
    } finally {
      proxy.release();
      pg.Client.prototype.query = query;
    }
    assert.equal(barriers, 2, 'the first, then one for the second and the third');
  });

  test('while the listening connection is down nothing can be vouched for; once back, everything kept before is stale', async () => {
    const e1 = `enr_${randomUUID()}`;
    assert.equal(await changesSynced(b), true);
    const before = b.scopedRevision!(e1);
    await proxy.cut();
    await eventually(async () => (await changesSynced(b)) === false);
    await proxy.restore();
    await eventually(() => changesSynced(b));
    assert.notEqual(b.scopedRevision!(e1), before, 'a new epoch: notifications may have been missed meanwhile');
  });
});
