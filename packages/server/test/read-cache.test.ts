// The read cache at the HTTP edge. The oracle: after any write, any clock movement or any
// change by another process, a read over HTTP (replayed or not) must equal the same read
// rendered by the handlers at that moment (in-process `app.fetch` never replays).
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import type { IncomingMessage } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, test } from 'vitest';
import { DAY_MS } from '../src/domain/clock.ts';
import { type Entry, entryBytes, ReadCache } from '../src/http/read-cache.ts';
import { openStore, startServer } from '../src/index.ts';
import { readCacheFromEnv } from '../src/settings.ts';
import type { ChangeScope, Store } from '../src/storage/store.ts';
import { basic, type Caller, caller, type Reply, servedSuite } from './helpers/harness.ts';

const payee = { scheme: 'zelle', address: 'jane.doe@example.com', name: 'Jane Doe', type: 'person' };
const SHAPING_HEADERS = ['content-type', 'service-version', 'service-enrollment-status'];

describe('read cache over HTTP', () => {
  const dir = mkdtempSync(join(tmpdir(), 'server-read-cache-'));
  let offset = 0;
  const served = servedSuite(() => ({ databasePath: join(dir, 'sandbox.sqlite'), now: () => Date.now() + offset }));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const http: Caller = (...args) => served.http(...args);
  const rendered: Caller = (...args) => served.rendered(...args);
  const { logged } = served;

  const enroll = async (username = 'username') => {
    const reply = await http('POST', '/sandbox/enrollments', { json: { username, password: 'password' } });
    assert.equal(reply.status, 201, reply.text);
    return { token: reply.body.access_token as string, accounts: reply.body.accounts as { id: string; subtype: string }[] };
  };

  // Error bodies name their own request, which differs between any two requests.
  const withoutRequestId = (text: string) => text.replace(/,"request_id":"req_[a-z0-9]+"/, '');
  const same = (path: string, replayed: Reply, fresh: Reply) => {
    assert.equal(replayed.status, fresh.status, `${path}: status`);
    assert.equal(withoutRequestId(replayed.text), withoutRequestId(fresh.text), `${path}: body`);
    for (const name of SHAPING_HEADERS) assert.equal(replayed.headers.get(name), fresh.headers.get(name), `${path}: ${name}`);
  };

  /** Reads each path twice over HTTP (the second may be replayed), then renders it: all three agree. */
  const agree = async (token: string, paths: string[], version?: string) => {
    for (const path of paths) {
      const options = { token, ...(version ? { version } : {}) };
      const first = await http('GET', path, options);
      const second = await http('GET', path, options);
      same(path, second, first);
      same(path, second, await rendered('GET', path, options));
    }
  };

  const pathsOf = (accounts: { id: string; subtype: string }[]) => {
    const checking = accounts.find((a) => a.subtype === 'checking')!;
    return {
      checking,
      paths: [
        '/accounts',
        `/accounts/${checking.id}`,
        `/accounts/${checking.id}/balances`,
        `/accounts/${checking.id}/details`,
        `/accounts/${checking.id}/transactions?count=50`,
        `/accounts/${checking.id}/payments`,
      ],
    };
  };

  test('a repeated read is replayed byte for byte, headers included', async () => {
    const { token, accounts } = await enroll();
    const { paths } = pathsOf(accounts);
    const hits = served.running.app.readCache!.hits;
    await agree(token, paths);
    assert.equal(served.running.app.readCache!.hits - hits, paths.length, 'each second read is replayed');
    assert.ok(
      logged.some((line) => line.startsWith('GET /accounts 200 ') && line.endsWith('(replayed)')),
      'the access log tells replays apart',
    );
  });

  test('every kind of write shows in the next read', async () => {
    const { token, accounts } = await enroll();
    const { checking, paths } = pathsOf(accounts);
    await agree(token, paths);
    const balances = (await http('GET', `/accounts/${checking.id}/balances`, { token })).body;

    const paid = await http('POST', `/accounts/${checking.id}/payments`, { token, json: { amount: '25', memo: 'Rent share', payee } });
    assert.equal(paid.status, 202, paid.text);
    const after = (await http('GET', `/accounts/${checking.id}/balances`, { token })).body;
    assert.equal(Math.round(Number(balances.ledger) * 100) - 2500, Math.round(Number(after.ledger) * 100));
    assert.equal((await http('GET', `/accounts/${checking.id}/payments`, { token })).body[0].id, paid.body.id);
    await agree(token, paths);

    // An MFA challenge, its approval (which changes nothing a read shows), then the payment it held back.
    const challenged = { amount: '5', memo: 'mfa', payee };
    const keyed = { token, json: challenged, headers: { 'idempotency-key': 'read-cache-mfa' } };
    const challenge = await http('POST', `/accounts/${checking.id}/payments`, keyed);
    assert.equal(challenge.status, 200, challenge.text);
    await agree(token, paths);
    assert.equal((await http('POST', `/sandbox/connect_tokens/${challenge.body.connect_token}/approve`, { token })).status, 200);
    await agree(token, paths);
    const approvedPayment = await http('POST', `/accounts/${checking.id}/payments`, keyed);
    assert.equal(approvedPayment.status, 202, approvedPayment.text);
    assert.equal((await http('GET', `/accounts/${checking.id}/payments`, { token })).body[0].id, approvedPayment.body.id);
    await agree(token, paths);

    assert.equal((await http('POST', '/sandbox/clock/advance', { token, json: { days: 3 } })).status, 200);
    await agree(token, paths);

    const savings = accounts.find((a) => a.subtype === 'savings')!;
    assert.equal((await http('POST', `/sandbox/accounts/${savings.id}/close`, { token, json: {} })).status, 200);
    assert.equal((await http('GET', `/accounts/${savings.id}`, { token })).status, 410);
    await agree(token, paths);

    assert.equal((await http('POST', '/sandbox/enrollment/disconnect', { token, json: { reason: 'account_locked' } })).status, 200);
    const listed = await http('GET', '/accounts', { token });
    assert.equal(listed.status, 200);
    const account = await http('GET', `/accounts/${checking.id}`, { token });
    assert.equal(account.headers.get('service-enrollment-status'), 'disconnected.account_locked');
    await agree(token, paths);

    assert.equal((await http('POST', '/sandbox/enrollment/reconnect', { token })).status, 200);
    const reconnected = await http('GET', `/accounts/${checking.id}`, { token });
    assert.equal(reconnected.headers.get('service-enrollment-status'), 'healthy', 'a kept read of the disconnected account is not replayed');
    assert.equal((await http('GET', `/accounts/${checking.id}/balances`, { token })).status, 200);
    await agree(token, paths);

    assert.equal((await http('DELETE', '/accounts', { token })).status, 204);
    assert.equal((await http('GET', '/accounts', { token })).status, 403, 'a revoked token reads nothing, replayed or not');
  });

  test('time alone changes what is due: enrichment completes without any write in between', async () => {
    const { token, accounts } = await enroll();
    const { checking } = pathsOf(accounts);
    const path = `/accounts/${checking.id}/transactions?count=100`;
    type Listed = { id: string; details: { processing_status: string } }[];
    const first = await http('GET', path, { token });
    const known = new Set((first.body as Listed).map((t) => t.id));
    // Of the transactions listed first: those the two days add (a rent on the 1st, today's card payments) are new.
    const pending = (body: Listed) => body.filter((t) => known.has(t.id) && t.details.processing_status === 'pending').length;
    const replayed = await http('GET', path, { token });
    same(path, replayed, first);
    assert.ok(pending(first.body) > 0, 'the newest transactions are still being enriched');
    offset += 2 * DAY_MS;
    const later = await http('GET', path, { token });
    assert.equal(pending(later.body), 0);
    same(path, later, await rendered('GET', path, { token }));
  });

  test("a token never sees another enrollment's replayed reads; versions are kept apart", async () => {
    const a = await enroll();
    const b = await enroll();
    await agree(a.token, ['/accounts']);
    const ofB = await http('GET', '/accounts', { token: b.token });
    assert.deepEqual(
      ofB.body.map((account: { id: string }) => account.id),
      b.accounts.map((account) => account.id),
    );
    const older = await http('GET', '/accounts', { token: a.token, version: '2019-07-01' });
    assert.equal(typeof older.body[0].institution, 'string');
    await agree(a.token, ['/accounts'], '2019-07-01');
  });

  test('a write by another process on the same database file shows in the next read', async () => {
    const { token, accounts } = await enroll();
    const { checking } = pathsOf(accounts);
    const path = `/accounts/${checking.id}`;
    await agree(token, [path]);
    const other = openStore({ path: join(dir, 'sandbox.sqlite') });
    try {
      await other.transaction((tx) => tx.accounts.update(checking.id, { name: 'Renamed elsewhere' }));
    } finally {
      await other.close();
    }
    assert.equal((await http('GET', path, { token })).body.name, 'Renamed elsewhere');
  });
});

describe("read cache: one enrollment's writes and another's reads", () => {
  const dir = mkdtempSync(join(tmpdir(), 'server-read-cache-scoped-'));
  const served = servedSuite(() => ({ databasePath: join(dir, 'sandbox.sqlite') }));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const http: Caller = (...args) => served.http(...args);
  const rendered: Caller = (...args) => served.rendered(...args);

  const hits = () => served.running.app.readCache!.hits;
  const enroll = async () => {
    const reply = await http('POST', '/sandbox/enrollments', { json: { username: 'username', password: 'password' } });
    assert.equal(reply.status, 201, reply.text);
    const accounts = reply.body.accounts as { id: string; subtype: string; enrollment_id: string }[];
    const checking = accounts.find((a) => a.subtype === 'checking')!.id;
    const paths = ['/accounts', `/accounts/${checking}`, `/accounts/${checking}/balances`, `/accounts/${checking}/transactions?count=20`];
    return { token: reply.body.access_token as string, enrollmentId: accounts[0]!.enrollment_id, checking, paths };
  };
  /** Reads every path over HTTP; each answer equals the same read rendered now. Returns how many were replayed. */
  const readAll = async ({ token, paths }: { token: string; paths: string[] }) => {
    const before = hits();
    for (const path of paths) {
      const read = await http('GET', path, { token });
      const fresh = await rendered('GET', path, { token });
      assert.equal(read.status, 200, `${path}: ${read.text}`);
      assert.equal(read.text, fresh.text, `${path}: the read equals the rendered one`);
    }
    return hits() - before;
  };
  const renamedElsewhere = async (accountId: string, name: string, changes?: { enrollment: string }) => {
    const other = openStore({ path: join(dir, 'sandbox.sqlite') });
    try {
      await other.transaction((tx) => tx.accounts.update(accountId, { name }), changes && { changes });
    } finally {
      await other.close();
    }
  };

  test("a payment is seen by its enrollment's next reads and leaves other enrollments' reads replayed", async () => {
    const a = await enroll();
    const b = await enroll();
    await readAll(a);
    await readAll(b);
    const paid = await http('POST', `/accounts/${a.checking}/payments`, { token: a.token, json: { amount: '25', memo: 'Rent share', payee } });
    assert.equal(paid.status, 202, paid.text);
    assert.equal(await readAll(b), b.paths.length, "b's reads are replayed across a's payment");
    assert.equal(await readAll(a), 0, "a's reads are rendered again");
    assert.equal(await readAll(a), a.paths.length, 'and replayed after that');
  });

  test("another process's write scoped to one enrollment: that enrollment's reads are rendered again, others' replayed", async () => {
    const a = await enroll();
    const b = await enroll();
    await readAll(a);
    await readAll(b);
    await renamedElsewhere(a.checking, 'Renamed again', { enrollment: a.enrollmentId });
    assert.equal(await readAll(b), b.paths.length);
    assert.equal(await readAll(a), 0);
    assert.equal((await http('GET', `/accounts/${a.checking}`, { token: a.token })).body.name, 'Renamed again');
  });

  test("authentication's kept reads follow another process's writes: a revoked token, an upgraded application", async () => {
    const a = await enroll();
    const known = served.running.app.runtime.knownTokens;
    const hits = known.hits;
    for (let i = 0; i < 2; i++) assert.equal((await rendered('GET', '/accounts', { token: a.token })).status, 200);
    assert.equal(known.hits - hits, 1, "the token's second request uses what the first read");
    const other = openStore({ path: join(dir, 'sandbox.sqlite') });
    try {
      const created = await http('POST', '/sandbox/applications', { json: { default_version: '2019-07-01' } });
      const enrolled = await http('POST', '/sandbox/enrollments', {
        headers: { authorization: basic(created.body.key) },
        json: { username: 'username', password: 'password' },
      });
      const older = enrolled.body.access_token as string;
      assert.equal((await rendered('GET', '/accounts', { token: older })).headers.get('service-version'), '2019-07-01');
      await other.transaction((tx) => tx.applications.update(created.body.application.id, { version: '2020-10-12' }));
      assert.equal((await rendered('GET', '/accounts', { token: older })).headers.get('service-version'), '2020-10-12');
      await other.transaction((tx) => tx.enrollments.update(a.enrollmentId, { revoked_at: Date.now() }), { changes: { enrollment: a.enrollmentId } });
      assert.equal((await rendered('GET', '/accounts', { token: a.token })).status, 403);
    } finally {
      await other.close();
    }
  });

  test("with nothing committed since, a token's kept reads are used without reading its revision; a commit reads it again", async () => {
    const a = await enroll();
    const { store } = served.running.app;
    const scopedRevision = store.scopedRevision!;
    let revisionReads = 0;
    store.scopedRevision = (enrollmentId) => {
      revisionReads += 1;
      return scopedRevision(enrollmentId);
    };
    try {
      const known = served.running.app.runtime.knownTokens;
      assert.equal((await rendered('GET', '/accounts', { token: a.token })).status, 200);
      const hits = known.hits;
      const reads = revisionReads;
      assert.equal((await rendered('GET', '/accounts', { token: a.token })).status, 200);
      assert.equal(known.hits - hits, 1, 'the kept reads are used');
      assert.equal(revisionReads - reads, 0, 'without a read of the revision');
      await renamedElsewhere(a.checking, 'Renamed for the revision', { enrollment: a.enrollmentId });
      assert.equal((await rendered('GET', `/accounts/${a.checking}`, { token: a.token })).body.name, 'Renamed for the revision');
      assert.ok(revisionReads - reads >= 1, "another process's commit moves the mark: the revision is read again");
    } finally {
      store.scopedRevision = scopedRevision;
    }
  });

  test('a write not scoped to one enrollment renders every kept read again', async () => {
    const a = await enroll();
    const b = await enroll();
    await readAll(a);
    await readAll(b);
    await renamedElsewhere(a.checking, 'Renamed, unscoped');
    assert.equal(await readAll(b), 0);
    assert.equal(await readAll(a), 0);
  });
});

describe('scoped revisions of the SQLite store', () => {
  test('a write counts up its enrollment (or every scope when unscoped); the outbox, a rollback or no write count nothing', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'server-scoped-revisions-'));
    const store = openStore({ path: join(dir, 'store.sqlite') });
    try {
      const revision = (id: string) => store.scopedRevision!(id);
      const write = (changes?: ChangeScope) =>
        store.transaction(
          (tx) => tx.idempotency.insert({ scope: 'enr_a', key: randomUUID(), request_hash: 'h', status: 202, response: '{}', created_at: 0 }),
          changes && { changes },
        );
      assert.equal(revision('enr_a'), '0.0');
      await write({ enrollment: 'enr_a' });
      assert.deepEqual([revision('enr_a'), revision('enr_b')], ['0.1', '0.0']);
      await write('outbox');
      assert.deepEqual([revision('enr_a'), revision('enr_b')], ['0.1', '0.0']);
      await store.transaction(async (tx) => {
        await tx.enrollments.get('enr_a');
      });
      assert.equal(revision('enr_b'), '0.0', 'a transaction that wrote nothing counts nothing');
      await assert.rejects(
        store.transaction(async (tx) => {
          await tx.idempotency.insert({ scope: 'enr_b', key: 'k', request_hash: 'h', status: 202, response: '{}', created_at: 0 });
          throw new Error('rolled back');
        }),
      );
      assert.equal(revision('enr_b'), '0.0', 'a rolled back transaction counts nothing');
      await write();
      assert.deepEqual([revision('enr_a'), revision('enr_b')], ['1.1', '1.0']);
    } finally {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('read cache and the rate limit', () => {
  // One request per 100 s: no token comes back while a test runs, however slow the machine is.
  const NO_REFILL = 0.01;

  test("replayed reads count against the caller's budget", async () => {
    const running = await startServer({
      port: 0,
      hostname: '127.0.0.1',
      rateLimit: { perSecond: NO_REFILL, burst: 4 },
      webhooks: { autostart: false },
    });
    try {
      const http = caller((request) => fetch(request), running.url);
      const { access_token: token } = (await http('POST', '/sandbox/enrollments', { json: { username: 'username', password: 'password' } })).body;
      const statuses: number[] = [];
      for (let i = 0; i < 5; i++) statuses.push((await http('GET', '/accounts', { token })).status);
      assert.deepEqual(statuses.slice(0, 3), [200, 200, 200]);
      assert.equal(statuses[4], 429);
      assert.ok(running.app.readCache!.hits >= 1);
    } finally {
      await running.close();
    }
  });
});

describe('read cache off', () => {
  test('readCache: false renders every read', async () => {
    const running = await startServer({ port: 0, hostname: '127.0.0.1', readCache: false, webhooks: { autostart: false } });
    try {
      const http = caller((request) => fetch(request), running.url);
      const { access_token: token } = (await http('POST', '/sandbox/enrollments', { json: { username: 'username', password: 'password' } })).body;
      assert.equal(running.app.readCache, undefined);
      const first = await http('GET', '/accounts', { token });
      const second = await http('GET', '/accounts', { token });
      assert.equal(second.text, first.text);
    } finally {
      await running.close();
    }
  });
});

describe("read cache off: an account's kept row", () => {
  test("is used again while current, and read again after another process's write to the account", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'server-kept-accounts-'));
    const databasePath = join(dir, 'sandbox.sqlite');
    const running = await startServer({ port: 0, hostname: '127.0.0.1', readCache: false, databasePath, webhooks: { autostart: false } });
    const other = openStore({ path: databasePath });
    try {
      const http = caller((request) => fetch(request), running.url);
      const enrolled = (await http('POST', '/sandbox/enrollments', { json: { username: 'username', password: 'password' } })).body;
      const token = enrolled.access_token as string;
      const checking = (enrolled.accounts as { id: string; subtype: string; enrollment_id: string }[]).find((a) => a.subtype === 'checking')!;
      const balances = async () => (await http('GET', `/accounts/${checking.id}/balances`, { token })).body as { ledger: string };
      const kept = running.app.runtime.keptAccounts;
      const first = await balances();
      const hits = kept.hits;
      assert.deepEqual(await balances(), first);
      assert.equal(kept.hits, hits + 1, 'the second read uses the row the first one read');
      const row = (await other.accounts.get(checking.enrollment_id, checking.id))!;
      await other.transaction((tx) => tx.accounts.update(checking.id, { ledger_cents: row.ledger_cents + 100 }), {
        changes: { enrollment: checking.enrollment_id, account: checking.id },
      });
      assert.equal(Number((await balances()).ledger), Number(first.ledger) + 1, "another process's write shows");
    } finally {
      await other.close();
      await running.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('read cache and stores that cannot see other writers', () => {
  test("a store whose change mark misses other processes' commits (PostgreSQL) gets no read cache", async () => {
    const store = openStore({ path: ':memory:' });
    // The same store, blind to writes made past it (as to another process's), and saying so as
    // the PostgreSQL store does: a cache trusting its mark would replay stale reads.
    const blind = { ...store, seesOtherWriters: false, changeMark: () => 'unchanged' };
    const running = await startServer({ port: 0, hostname: '127.0.0.1', store: blind, webhooks: { autostart: false } });
    try {
      assert.equal(running.app.readCache, undefined);
      const http = caller((request) => fetch(request), running.url);
      const { access_token: token } = (await http('POST', '/sandbox/enrollments', { json: { username: 'username', password: 'password' } })).body;
      const first = await http('GET', '/accounts', { token });
      // A write that bypasses this app, as another process's would.
      await store.transaction((tx) => tx.accounts.update(first.body[0].id, { name: 'Renamed elsewhere' }));
      const second = await http('GET', '/accounts', { token });
      assert.equal(second.body[0].name, 'Renamed elsewhere');
    } finally {
      await running.close();
      await store.close();
    }
  });
});

describe('read cache memory budget', () => {
  const store = { changeMark: () => 'mark' } as unknown as Store;
  const entry = (bodyBytes: number): Entry => ({
    mark: 'mark',
    scoped: undefined,
    expiresAt: Number.POSITIVE_INFINITY,
    live: false,
    caller: undefined,
    scope: undefined,
    head: ['content-type', 'application/json', 'content-length', String(bodyBytes)],
    version: '',
    body: Buffer.alloc(bodyBytes, 'x'),
  });
  const keyOf = (n: number) => `Basic dG9rZW4=\n\nlocalhost\n/accounts/acc_${n}`;
  const incoming = { socket: {} } as IncomingMessage;

  test('kept responses are counted by their bytes and the least recently used go beyond the budget', () => {
    const size = entryBytes(keyOf(1), entry(10_000));
    assert.ok(size > 10_000, 'the body, its key, its headers and a fixed overhead');
    const cache = new ReadCache(store, Date.now, { maxBytes: 3 * size });
    for (const n of [1, 2, 3]) cache.keep(keyOf(n), entry(10_000));
    assert.equal(cache.keptBytes, 3 * size);
    // A read of the first makes the second the least recently used.
    assert.equal(
      cache.check(keyOf(1), incoming, () => {}),
      true,
    );
    cache.keep(keyOf(4), entry(10_000));
    assert.deepEqual(
      [1, 2, 3, 4].map((n) => cache.keeps(keyOf(n))),
      [true, false, true, true],
    );
    assert.equal(cache.keptBytes, 3 * size);
    // One larger response takes the room of two.
    cache.keep(keyOf(5), entry(20_000));
    assert.deepEqual(
      [1, 3, 4, 5].map((n) => cache.keeps(keyOf(n))),
      [false, false, true, true],
    );
    assert.ok(cache.keptBytes <= 3 * size);
  });

  test('a body above the largest kept size is not kept', () => {
    const cache = new ReadCache(store, Date.now, { maxBytes: 1 << 20, maxEntryBytes: 1000 });
    cache.keep(keyOf(1), entry(1001));
    cache.keep(keyOf(2), entry(1000));
    assert.deepEqual([cache.keeps(keyOf(1)), cache.keeps(keyOf(2))], [false, true]);
  });

  test('SANDBOX_READ_CACHE_MB sets the budget; READ_CACHE=off turns the cache off', () => {
    assert.deepEqual(readCacheFromEnv({}), { maxBytes: 48 * 1024 * 1024 });
    assert.deepEqual(readCacheFromEnv({ SANDBOX_READ_CACHE_MB: '16' }), { maxBytes: 16 * 1024 * 1024 });
    assert.equal(readCacheFromEnv({ READ_CACHE: 'off', SANDBOX_READ_CACHE_MB: '16' }), false);
    assert.throws(() => readCacheFromEnv({ SANDBOX_READ_CACHE_MB: '0' }), /SANDBOX_READ_CACHE_MB/);
    assert.throws(() => readCacheFromEnv({ SANDBOX_READ_CACHE_MB: 'lots' }), /SANDBOX_READ_CACHE_MB/);
  });
});
