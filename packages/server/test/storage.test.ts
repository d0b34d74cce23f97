// Each store (embedded SQLite, PostgreSQL) against one suite: migrations, atomic transactions,
// row locks, unique keys, keyset pages on the index, claims of due deliveries, reopening; then
// what only one of them has (SQLite's file settings and memory mode, PostgreSQL's types).
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { constants, DatabaseSync } from 'node:sqlite';
import pg from 'pg';
import { afterAll, beforeAll, describe, test, vi } from 'vitest';
import { openStore, type StorageOptions, type Store } from '../src/index.ts';
import { migrations as postgresMigrations } from '../src/storage/postgres/migrations.ts';
import { sqlRepos } from '../src/storage/sql/repos.ts';
import { GroupCommit } from '../src/storage/sqlite/group-commit.ts';
import { SqliteConnection } from '../src/storage/sqlite/index.ts';
import { migrations as sqliteMigrations } from '../src/storage/sqlite/migrations.ts';
import { rowReader } from '../src/storage/sqlite/rows.ts';
import { WAL_INDEX_VERSION, watchWalIndex } from '../src/storage/sqlite/wal-index.ts';
import { DEFAULT_APPLICATION_ID, type DeliveryRow, type TransactionRow, UniqueViolation } from '../src/storage/store.ts';
import { pendingDelivery, testEvent } from './helpers/outbox.ts';
import { describeUnless, type StoreKind, storeKinds } from './helpers/stores.ts';

const enrollment = (id: string) => ({
  id,
  application_id: DEFAULT_APPLICATION_ID,
  client_address: null,
  token_hash: `hash_${id}`,
  mode: 'sandbox' as const,
  username: 'username',
  institution_id: 'chase',
  status: 'healthy' as const,
  status_reason: null,
  disconnect_on_use: false,
  disconnect_on_use_reason: null,
  clock_offset_ms: 0,
  revoked_at: null,
  created_at: 1,
  simulated_through: '2024-01-01',
  next_due_at: null,
  refresh_count: 0,
  rate_limited_requests: 0,
  transactions_timeouts: 0,
  user_id: `usr_${id}`,
  mfa_payments: false,
});

/** An enrollment row of a database from before the enrollment widget's columns. */
const enrollmentBeforeWidget = (id: string) => {
  const { user_id: _, mfa_payments: __, ...row } = enrollment(id);
  return row;
};

const account = (id: string, enrollmentId: string) => ({
  id,
  enrollment_id: enrollmentId,
  position: 0,
  name: 'Checking',
  type: 'depository' as const,
  subtype: 'checking',
  currency: 'USD',
  last_four: '1234',
  status: 'open' as const,
  closed_reason: null,
  removed_at: null,
  payments_supported: true,
  account_number: '0001234',
  routing_ach: '021000021',
  routing_wire: null,
  verification: 'instant' as const,
  verification_outcome: null,
  verification_expires_at: null,
  ledger_cents: 0,
  available_cents: 0,
  credit_limit_cents: null,
  profile: 'checking',
});

const txn = (accountId: string, seq: number, date: string): TransactionRow => ({
  id: `txn_${seq}`,
  account_id: accountId,
  seq,
  date,
  amount_cents: -100,
  description: 'X',
  status: 'posted',
  type: 'card_payment',
  running_balance_cents: -100 * seq,
  processing_status: 'complete',
  category: null,
  counterparty_name: null,
  counterparty_type: null,
  post_date: null,
  post_amount_cents: null,
  post_replaces: false,
  enrich_at: null,
});

/** What differs in looking at each database from the outside. */
interface Inspect {
  migrations: number[];
  applied(location: StorageOptions): Promise<number[]>;
  /** The plan of a deep keyset page: it must walk the index and not sort. */
  pagePlan(location: StorageOptions): Promise<{ usesIndex: boolean; sorts: boolean; text: string }>;
  /** A database migrated up to (not including) `version`, with these rows written into its tables as they are. */
  before(location: StorageOptions, version: number, rows: readonly (readonly [table: string, row: object])[]): Promise<void>;
  /** The migration that gives transactions their stamps. */
  stampsMigration: number;
  /** The plan of a page's stamps, which must be read from the index alone. */
  stampsPlan?(location: StorageOptions): Promise<{ indexOnly: boolean; text: string }>;
}

const PAGE_SQL = 'SELECT * FROM transactions WHERE account_id = ? AND (date, seq) < (?, ?) ORDER BY date DESC, seq DESC LIMIT ?';
const PAGE_PARAMS = ['acc_1', '2024-02-01', 5, 10];
const STAMPS_SQL = `SELECT json_group_array(value) FROM (${PAGE_SQL.replace('SELECT *', 'SELECT stamp AS value')})`;

/** SQLite's plan of a statement, one step a line. */
function sqlitePlan(path: string, sql: string): string {
  const db = new DatabaseSync(path, { readOnly: true });
  const plan = db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...PAGE_PARAMS) as { detail: string }[];
  db.close();
  return plan.map((step) => step.detail).join('\n');
}

const inspect: Record<StoreKind['name'], Inspect> = {
  sqlite: {
    migrations: sqliteMigrations.map((m) => m.version),
    async applied({ path }) {
      const db = new DatabaseSync(path!, { readOnly: true });
      const rows = db.prepare('SELECT version FROM migrations ORDER BY version').all() as { version: number }[];
      db.close();
      return rows.map((row) => row.version);
    },
    async pagePlan({ path }) {
      const text = sqlitePlan(path!, PAGE_SQL);
      return { usesIndex: /USING INDEX transactions_by_account_date/.test(text), sorts: /TEMP B-TREE/.test(text), text };
    },
    async before({ path }, version, rows) {
      const db = new DatabaseSync(path!);
      db.exec('CREATE TABLE migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at INTEGER NOT NULL)');
      for (const migration of sqliteMigrations.filter((m) => m.version < version)) {
        db.exec(migration.sql);
        db.prepare('INSERT INTO migrations (version, name, applied_at) VALUES (?, ?, 0)').run(migration.version, migration.name);
      }
      for (const [table, row] of rows) {
        const values = Object.values(row).map((value) => (typeof value === 'boolean' ? Number(value) : value));
        db.prepare(`INSERT INTO ${table} (${Object.keys(row).join(', ')}) VALUES (${values.map(() => '?').join(', ')})`).run(...values);
      }
      db.close();
    },
    stampsMigration: 8,
    async stampsPlan({ path }) {
      const text = sqlitePlan(path!, STAMPS_SQL);
      return { indexOnly: /USING COVERING INDEX/.test(text) && !/TEMP B-TREE/.test(text), text };
    },
  },
  postgres: {
    migrations: postgresMigrations.map((m) => m.version),
    async applied({ url }) {
      const client = new pg.Client(url);
      await client.connect();
      const { rows } = await client.query<{ version: number }>('SELECT version FROM migrations ORDER BY version');
      await client.end();
      return rows.map((row) => row.version);
    },
    async before({ url }, version, rows) {
      const client = new pg.Client(url);
      await client.connect();
      await client.query('CREATE TABLE migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at BIGINT NOT NULL)');
      for (const migration of postgresMigrations.filter((m) => m.version < version)) {
        await client.query(migration.sql);
        await client.query('INSERT INTO migrations (version, name, applied_at) VALUES ($1, $2, 0)', [migration.version, migration.name]);
      }
      for (const [table, row] of rows) {
        const names = Object.keys(row);
        await client.query(`INSERT INTO ${table} (${names.join(', ')}) VALUES (${names.map((_, i) => `$${i + 1}`).join(', ')})`, Object.values(row));
      }
      await client.end();
    },
    stampsMigration: 6,
    async pagePlan({ url }) {
      const client = new pg.Client(url);
      await client.connect();
      // On a small table the planner might rightly prefer a scan: ask what it does with the index available.
      await client.query('ANALYZE transactions');
      await client.query('SET enable_seqscan = off');
      let n = 0;
      const { rows } = await client.query<{ 'QUERY PLAN': string }>(`EXPLAIN ${PAGE_SQL.replace(/\?/g, () => `$${++n}`)}`, PAGE_PARAMS);
      await client.end();
      const text = rows.map((row) => row['QUERY PLAN']).join('\n');
      return {
        usesIndex: /Index Scan using transactions_by_account_date/.test(text) && /Index Cond: .*ROW\(date, seq\) < /.test(text),
        sorts: /Sort/.test(text),
        text,
      };
    },
  },
};

for (const kind of await storeKinds()) {
  describeUnless(kind.skip, `${kind.name} store`, () => {
    let location: StorageOptions;
    let store: Store;

    beforeAll(async () => {
      location = await kind.location(true);
      store = openStore(location);
      await store.ready();
      await store.transaction(async (tx) => {
        await tx.enrollments.insert(enrollment('enr_1'));
        await tx.accounts.insert(account('acc_1', 'enr_1'));
      });
    });
    afterAll(() => store.close());

    test('migrations are numbered and recorded', async () => {
      assert.deepEqual(await inspect[kind.name].applied(location), inspect[kind.name].migrations);
    });

    test('a failing transaction writes nothing', async () => {
      await assert.rejects(
        store.transaction(async (tx) => {
          await tx.enrollments.update('enr_1', { status: 'disconnected' });
          throw new Error('boom');
        }),
        /boom/,
      );
      assert.equal((await store.enrollments.get('enr_1'))!.status, 'healthy');
    });

    test('a transaction that need not be durable commits and rolls back like any other', async () => {
      await store.transaction((tx) => tx.enrollments.update('enr_1', { refresh_count: 7 }), { durable: false });
      assert.equal((await store.enrollments.get('enr_1'))!.refresh_count, 7);
      await assert.rejects(
        store.transaction(
          async (tx) => {
            await tx.enrollments.update('enr_1', { refresh_count: 8 });
            throw new Error('boom');
          },
          { durable: false },
        ),
        /boom/,
      );
      await store.transaction((tx) => tx.enrollments.update('enr_1', { refresh_count: 0 }));
      assert.equal((await store.enrollments.get('enr_1'))!.refresh_count, 0);
    });

    test('reads outside a transaction see committed data only', async () => {
      let seenInside: string | undefined;
      await store.transaction(async (tx) => {
        await tx.enrollments.update('enr_1', { username: 'changed' });
        seenInside = (await store.enrollments.get('enr_1'))!.username;
      });
      assert.equal(seenInside, 'username');
      assert.equal((await store.enrollments.get('enr_1'))!.username, 'changed');
    });

    test('getForUpdate: concurrent read-modify-write transactions lose no update', async () => {
      const start = (await store.enrollments.get('enr_1'))!.refresh_count;
      await Promise.all(
        Array.from({ length: 20 }, () =>
          store.transaction(async (tx) => {
            const current = (await tx.enrollments.getForUpdate('enr_1'))!;
            await new Promise((resolve) => setTimeout(resolve, 2));
            await tx.enrollments.update('enr_1', { refresh_count: current.refresh_count + 1 });
          }),
        ),
      );
      assert.equal((await store.enrollments.get('enr_1'))!.refresh_count, start + 20);
    });

    test('unique keys raise UniqueViolation (concurrent idempotency keys)', async () => {
      const row = { scope: 'enr_1', key: 'k', request_hash: 'h', status: 202, response: '{}', created_at: 1 };
      await store.transaction((tx) => tx.idempotency.insert(row));
      await assert.rejects(
        store.transaction((tx) => tx.idempotency.insert(row)),
        UniqueViolation,
      );
    });

    test('booleans, cents and epoch milliseconds round-trip as booleans and numbers', async () => {
      await store.transaction((tx) => tx.accounts.update('acc_1', { ledger_cents: 9_007_199_254_740, verification_expires_at: 1_767_225_600_123 }));
      const row = (await store.accounts.get('enr_1', 'acc_1'))!;
      assert.equal(row.payments_supported, true);
      assert.equal(row.ledger_cents, 9_007_199_254_740);
      assert.equal(row.verification_expires_at, 1_767_225_600_123);
      assert.equal(row.credit_limit_cents, null);
      assert.equal((await store.enrollments.get('enr_1'))!.disconnect_on_use, false);
    });

    test("a token's enrollment and its application come in one read, as each reads alone; an unknown token finds none", async () => {
      await store.transaction((tx) => tx.enrollments.update('enr_1', { disconnect_on_use: true, revoked_at: 1_767_225_600_123 }));
      const found = (await store.enrollments.getWithApplicationByTokenHash('hash_enr_1'))!;
      assert.deepStrictEqual(found.enrollment, await store.enrollments.get('enr_1'));
      assert.deepStrictEqual(found.application, await store.applications.get(DEFAULT_APPLICATION_ID));
      assert.equal(found.enrollment.disconnect_on_use, true);
      assert.equal(found.enrollment.revoked_at, 1_767_225_600_123);
      assert.equal(await store.enrollments.getWithApplicationByTokenHash('hash_unknown'), undefined);
      await store.transaction((tx) => tx.enrollments.update('enr_1', { disconnect_on_use: false, revoked_at: null }));
    });

    test('keyset pages: newest first, strictly older than the cursor, date filters, via the index', async () => {
      const rows: TransactionRow[] = [];
      for (let seq = 1; seq <= 3000; seq++)
        rows.push(txn('acc_1', seq, `2024-0${1 + Math.floor((seq - 1) / 1000)}-${String(1 + ((seq - 1) % 28)).padStart(2, '0')}`));
      rows[7]!.post_replaces = true;
      await store.transaction((tx) => tx.transactions.insertMany(rows));
      const sorted = [...rows].sort((a, b) => (a.date === b.date ? b.seq - a.seq : a.date < b.date ? 1 : -1));
      const first = await store.transactions.page('acc_1', { limit: 10 });
      assert.deepEqual(
        first.map((r) => r.id),
        sorted.slice(0, 10).map((r) => r.id),
      );
      const cursor = sorted[2500]!;
      const deep = await store.transactions.page('acc_1', { before: { date: cursor.date, seq: cursor.seq }, limit: 5 });
      assert.deepEqual(
        deep.map((r) => r.id),
        sorted.slice(2501, 2506).map((r) => r.id),
      );
      const ranged = await store.transactions.page('acc_1', { startDate: '2024-02-01', endDate: '2024-02-28', limit: 5000 });
      assert.equal(ranged.length, 1000);
      // Every column comes back as written, with the row's version (no update yet) and the stamp the store gave it.
      const eighth = await store.transactions.get('acc_1', 'txn_8');
      assert.ok(Number.isSafeInteger(eighth?.stamp), `a stamp: ${eighth?.stamp}`);
      assert.deepEqual(eighth, { ...rows[7], version: 0, stamp: eighth!.stamp });
      const all = await store.transactions.page('acc_1', { limit: 5000 });
      const highest = Math.max(...all.map((r) => r.stamp!));
      assert.equal(new Set(all.map((r) => r.stamp)).size, rows.length, 'every row has its own stamp');
      // The page's stamps are its rows' in its order; an update gives the row a new one, above every other.
      // A patch made from a whole row (as the sandbox's posting does) carries a version and a stamp: not written.
      const before = await store.transactions.pageStamps('acc_1', { limit: 3 });
      assert.deepEqual(
        before,
        all.slice(0, 3).map((r) => r.stamp),
      );
      const whole: TransactionRow = { ...sorted[1]!, processing_status: 'complete', version: 7, stamp: before[0] };
      await store.transaction((tx) => tx.transactions.update(sorted[1]!.id, whole));
      const after = await store.transactions.pageStamps('acc_1', { limit: 3 });
      assert.deepEqual([after[0], after[2]], [before[0], before[2]]);
      assert.ok(after[1]! > highest, `the updated row's stamp ${after[1]} is above every earlier one (${highest})`);
      const some = await store.transactions.getByStamps('acc_1', [after[1]!, after[2]!, before[1]!, highest + 1_000_000]);
      assert.deepEqual(
        some.map((r) => [r.id, r.version, r.processing_status, r.stamp]).sort(),
        [
          [sorted[1]!.id, 1, 'complete', after[1]],
          [sorted[2]!.id, 0, sorted[2]!.processing_status, after[2]],
        ].sort(),
        'a row is found at its current stamp only',
      );
      assert.deepEqual(await store.transactions.getByStamps('acc_2', [after[1]!]), [], "another account's rows are not its");
      assert.deepEqual(await store.transactions.pageStamps('acc_2', { limit: 3 }), [], 'an account without rows has no stamps');
      const plan = await inspect[kind.name].pagePlan(location);
      assert.ok(plan.usesIndex, plan.text);
      assert.ok(!plan.sorts, `no sort step: ${plan.text}`);
      const stampsPlan = await inspect[kind.name].stampsPlan?.(location);
      if (stampsPlan) assert.ok(stampsPlan.indexOnly, `the page's stamps come from the index alone: ${stampsPlan.text}`);
    });

    test('a database from before stamps: its rows get one each, pages read them, and later writes get new ones above', async () => {
      const older = await kind.location(true);
      const history = Array.from({ length: 50 }, (_, i) => txn('acc_old', i + 1, `2024-01-${String(1 + (i % 28)).padStart(2, '0')}`));
      const other = Array.from({ length: 5 }, (_, i) => ({ ...txn('acc_other', i + 1, '2024-02-01'), id: `txn_other_${i}` }));
      await inspect[kind.name].before(older, inspect[kind.name].stampsMigration, [
        // As the schema of then had it: without what came later.
        ['enrollments', enrollmentBeforeWidget('enr_old')],
        ['accounts', account('acc_old', 'enr_old')],
        ['accounts', account('acc_other', 'enr_old')],
        ...[...history, ...other].map((row) => ['transactions', row] as const),
      ]);
      const upgraded = openStore(older);
      try {
        await upgraded.ready();
        const page = await upgraded.transactions.page('acc_old', { limit: 100 });
        assert.equal(page.length, history.length);
        const stamps = page.map((row) => row.stamp!);
        const others = (await upgraded.transactions.page('acc_other', { limit: 100 })).map((row) => row.stamp!);
        assert.ok(
          [...stamps, ...others].every((stamp) => Number.isSafeInteger(stamp)),
          'every row has a stamp',
        );
        assert.equal(new Set([...stamps, ...others]).size, history.length + other.length, 'no two rows share one');
        assert.deepEqual(await upgraded.transactions.pageStamps('acc_old', { limit: 100 }), stamps);
        assert.deepEqual(
          (await upgraded.transactions.getByStamps('acc_old', stamps.slice(0, 3))).map((row) => row.id).sort(),
          page
            .slice(0, 3)
            .map((row) => row.id)
            .sort(),
        );
        const highest = Math.max(...stamps, ...others);
        await upgraded.transaction((tx) => tx.transactions.update(page[0]!.id, { processing_status: 'pending' }));
        await upgraded.transaction((tx) => tx.transactions.insertMany([{ ...txn('acc_old', 51, '2024-01-01'), id: 'txn_new' }]));
        const changed = (await upgraded.transactions.get('acc_old', page[0]!.id))!;
        const added = (await upgraded.transactions.get('acc_old', 'txn_new'))!;
        assert.ok(changed.stamp! > highest && added.stamp! > changed.stamp!, `${changed.stamp}, ${added.stamp} above ${highest}`);
      } finally {
        await upgraded.close();
      }
    });

    test("a deleted or replaced row's stamp is never given again, whatever the row to insert carries", async () => {
      await store.transaction((tx) => tx.accounts.insert(account('acc_stamps', 'enr_1')));
      const first = { ...txn('acc_stamps', 1, '2024-03-01'), id: 'txn_stamps_1' };
      await store.transaction((tx) => tx.transactions.insertMany([first]));
      const given = (await store.transactions.get('acc_stamps', first.id))!;
      // A copy of a row that is still there, as read (its stamp with it).
      await store.transaction((tx) => tx.transactions.insertMany([{ ...given, id: 'txn_stamps_copy', seq: 9 }]));
      const copy = (await store.transactions.get('acc_stamps', 'txn_stamps_copy'))!;
      assert.ok(copy.stamp! > given.stamp!, `${copy.stamp} after ${given.stamp}`);
      await store.transaction((tx) => tx.transactions.delete(copy.id));
      // As the sandbox's posting replaces a pending row: deleted, and a copy of the read row inserted under a new id.
      await store.transaction(async (tx) => {
        await tx.transactions.delete(given.id);
        await tx.transactions.insertMany([{ ...given, id: 'txn_stamps_2' }]);
      });
      const replacement = (await store.transactions.get('acc_stamps', 'txn_stamps_2'))!;
      assert.ok(replacement.stamp! > copy.stamp!, `${replacement.stamp} after ${copy.stamp}`);
      // The newest row deleted (the one SQLite would give its rowid again), then a new row.
      await store.transaction((tx) => tx.transactions.delete(replacement.id));
      await store.transaction((tx) => tx.transactions.insertMany([{ ...first, id: 'txn_stamps_3' }]));
      const third = (await store.transactions.get('acc_stamps', 'txn_stamps_3'))!;
      assert.ok(third.stamp! > replacement.stamp!, `${third.stamp} after ${replacement.stamp}`);
      // A transaction rolled back takes its stamps with it, and the next rows get others (never below).
      await assert.rejects(
        store.transaction(async (tx) => {
          await tx.transactions.insertMany([{ ...first, id: 'txn_stamps_4' }]);
          throw new Error('rolled back');
        }),
      );
      await store.transaction((tx) => tx.transactions.insertMany([{ ...first, id: 'txn_stamps_5', seq: 2 }]));
      const fifth = (await store.transactions.get('acc_stamps', 'txn_stamps_5'))!;
      assert.ok(fifth.stamp! > third.stamp!, `${fifth.stamp} after ${third.stamp}`);
      assert.deepEqual(await store.transactions.pageStamps('acc_stamps', { limit: 10 }), [fifth.stamp, third.stamp]);
    });

    test('claims: due deliveries oldest first, each to one claimer until its lease runs out', async () => {
      await store.transaction(async (tx) => {
        await tx.outbox.insertEvent(testEvent);
        for (let i = 1; i <= 30; i++) await tx.outbox.insertDelivery(pendingDelivery(`dlv_${String(i).padStart(2, '0')}`, 1000 + i));
        await tx.outbox.insertDelivery(pendingDelivery('dlv_later', 5000));
      });
      const first = await store.transaction((tx) => tx.outbox.claimDue(2000, 5, 10_000));
      assert.deepEqual(
        first.map((d) => d.id),
        ['dlv_01', 'dlv_02', 'dlv_03', 'dlv_04', 'dlv_05'],
      );
      assert.ok(first.every((d) => d.next_attempt_at === 10_000));
      // A second store on the same database (another process) claims too: no delivery twice. On
      // PostgreSQL they claim concurrently; two SQLite stores in one thread must take turns (a
      // writer waiting for the file lock would block the thread that holds it).
      const other = openStore(location);
      try {
        const claim = (i: number) => (i % 2 ? store : other).transaction((tx) => tx.outbox.claimDue(2000, 3, 10_000));
        const claims: DeliveryRow[][] = [];
        if (kind.name === 'postgres') claims.push(...(await Promise.all(Array.from({ length: 10 }, (_, i) => claim(i)))));
        else for (let i = 0; i < 10; i++) claims.push(await claim(i));
        const ids = claims.flat().map((d) => d.id);
        assert.equal(ids.length, 25);
        assert.equal(new Set(ids).size, 25);
        assert.ok(!ids.includes('dlv_later'));
      } finally {
        await other.close();
      }
      assert.deepEqual(await store.transaction((tx) => tx.outbox.claimDue(2000, 50, 10_000)), []);
      // Leases that ran out are claimed again.
      assert.equal((await store.transaction((tx) => tx.outbox.claimDue(10_000, 50, 20_000))).length, 31);
    });

    // A PostgreSQL connection only.
    test.skipIf(kind.name === 'sqlite')('a connection cut in the middle of a transaction fails that transaction, not the process', async () => {
      const admin = new pg.Client({ connectionString: location.url });
      await admin.connect();
      try {
        await assert.rejects(
          store.transaction(async (tx) => {
            await tx.enrollments.get('enr_1');
            // The connection this transaction holds dies between two statements, as in a database restart.
            await admin.query(
              "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND application_name = 'aggregation-server' AND state = 'idle in transaction'",
            );
            await new Promise((resolve) => setTimeout(resolve, 200));
            await tx.enrollments.get('enr_1');
          }),
        );
        assert.ok(await store.enrollments.get('enr_1'), 'the next statement gets a working connection');
      } finally {
        await admin.end();
      }
    });

    test('data survives closing and reopening', async () => {
      await store.close();
      store = openStore(location);
      assert.equal((await store.enrollments.get('enr_1'))!.username, 'changed');
      assert.equal(await store.transactions.maxSeq('acc_1'), 3000);
    });
  });
}

describe('sqlite only', () => {
  test('rows are plain objects with booleans, whatever the names of their columns', () => {
    const db = new DatabaseSync(':memory:');
    db.exec("CREATE TABLE t (id TEXT, post_replaces INTEGER, note TEXT); INSERT INTO t VALUES ('a', 1, NULL), ('b', 0, 'x')");
    const rows = rowReader(db.prepare('SELECT * FROM t ORDER BY id')).all([]);
    assert.deepEqual(rows, [
      { id: 'a', post_replaces: true, note: null },
      { id: 'b', post_replaces: false, note: 'x' },
    ]);
    assert.equal(Object.getPrototypeOf(rows[0]), Object.prototype);
    // Names no literal can hold as they are, and one that would set a literal's prototype.
    const odd = rowReader(db.prepare('SELECT COUNT(*), 1 AS "__proto__" FROM t')).get([]) as Record<string, unknown>;
    assert.deepEqual(Object.entries(odd), [
      ['COUNT(*)', 2],
      ['__proto__', 1],
    ]);
    assert.equal(Object.getPrototypeOf(odd), Object.prototype);
    assert.equal(rowReader(db.prepare("SELECT * FROM t WHERE id = 'none'")).get([]), undefined);
    db.close();
  });

  test('statements with a LIMIT run again without being prepared again', async () => {
    const db = new DatabaseSync(':memory:');
    for (const migration of sqliteMigrations) db.exec(migration.sql);
    const repos = sqlRepos(new SqliteConnection(db));
    const limited = [
      () => repos.transactions.page('acc_1', { limit: 10 }),
      () => repos.transactions.pageStamps('acc_1', { before: { date: '2024-02-01', seq: 5 }, limit: 10 }),
      () => repos.payments.page('acc_1', { limit: 10 }),
      () => repos.payments.page('acc_1', { before: { created_at: 1, id: 'pay_1' }, limit: 10 }),
      () => repos.outbox.listDeliveries(DEFAULT_APPLICATION_ID, 10),
      () => repos.outbox.claimDue(0, 10, 1),
    ];
    // The authorizer is asked while a statement is compiled; setting it makes every statement compile once more.
    let compiled = 0;
    db.setAuthorizer(() => {
      compiled += 1;
      return constants.SQLITE_OK;
    });
    for (const run of limited) await run();
    assert.ok(compiled > 0, 'the authorizer sees statements compile');
    compiled = 0;
    for (const run of limited) await run();
    assert.equal(compiled, 0, 'no statement was prepared again');
    db.close();
  });

  test('a database from before applications keeps its webhook URL, secrets, enrollments and outbox in the default application', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'store-'));
    const path = join(dir, 'old.sqlite');
    const old = new DatabaseSync(path);
    old.exec('CREATE TABLE migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at INTEGER NOT NULL)');
    for (const migration of sqliteMigrations.filter((m) => m.version < 3)) {
      old.exec(migration.sql);
      old.prepare('INSERT INTO migrations (version, name, applied_at) VALUES (?, ?, 0)').run(migration.version, migration.name);
    }
    old.exec(`UPDATE webhook_settings SET url = 'http://127.0.0.1:4000/hooks';
      INSERT INTO webhook_secrets (id, secret, created_at, expires_at) VALUES ('whs_old', 'whsec_old', 1, NULL);
      INSERT INTO enrollments (id, token_hash, mode, username, institution_id, status, created_at, simulated_through)
        VALUES ('enr_old', 'hash_old', 'sandbox', 'username', 'chase', 'healthy', 1, '2024-01-01');
      INSERT INTO events (id, type, payload, timestamp, created_at) VALUES ('evt_old', 'webhook.test', '{}', '2024-01-01T00:00:00Z', 1);
      INSERT INTO deliveries (id, event_id, event_type, url, status, created_at)
        VALUES ('dlv_old', 'evt_old', 'webhook.test', 'http://127.0.0.1:4000/hooks', 'pending', 1);`);
    old.close();
    const store = openStore({ path });
    try {
      await store.ready();
      const application = await store.applications.get(DEFAULT_APPLICATION_ID);
      assert.equal(application?.webhook_url, 'http://127.0.0.1:4000/hooks');
      assert.equal(application?.key_hash, null);
      assert.equal(application?.version, null, 'the default application follows the server default');
      assert.deepEqual(
        (await store.webhooks.listSecrets(DEFAULT_APPLICATION_ID)).map((row) => row.id),
        ['whs_old'],
      );
      assert.equal((await store.enrollments.get('enr_old'))?.application_id, DEFAULT_APPLICATION_ID);
      assert.equal((await store.outbox.getEvent('evt_old'))?.application_id, DEFAULT_APPLICATION_ID);
      assert.deepEqual(
        (await store.outbox.listDeliveries(DEFAULT_APPLICATION_ID, 10)).map((row) => row.id),
        ['dlv_old'],
      );
      assert.deepEqual(await store.outbox.listDeliveries('app_other', 10), []);
    } finally {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('a file is in WAL mode', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'store-'));
    const path = join(dir, 'nested', 'store.sqlite');
    const store = openStore({ path });
    const db = new DatabaseSync(path, { readOnly: true });
    assert.equal((db.prepare('PRAGMA journal_mode').get() as { journal_mode: string }).journal_mode, 'wal');
    db.close();
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test('in memory: the same behaviour', async () => {
    const memory = openStore({ path: ':memory:' });
    await memory.transaction((tx) => tx.enrollments.insert(enrollment('enr_m')));
    assert.equal((await memory.enrollments.get('enr_m'))!.id, 'enr_m');
    await memory.close();
    await assert.rejects(memory.transaction(async () => undefined));
  });

  test('on a file, its change mark moves on every commit of another connection, and only then', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'store-'));
    const path = join(dir, 'store.sqlite');
    const store = openStore({ path });
    const other = new DatabaseSync(path);
    try {
      await store.transaction((tx) => tx.enrollments.insert(enrollment('enr_w')));
      const marks = [store.changeMark()];
      assert.equal(store.changeMark(), marks[0], 'no commit, same mark');
      other.prepare('SELECT count(*) FROM enrollments').get();
      assert.equal(store.changeMark(), marks[0], 'a read is not a commit');
      for (const name of ['one', 'two', 'three']) {
        other.prepare('UPDATE enrollments SET username = ?').run(name);
        marks.push(store.changeMark());
      }
      assert.equal(new Set(marks).size, 4, `every commit shows: ${marks.join(' ')}`);
      // A checkpoint that restarts the log does not hide the commits after it.
      other.exec('PRAGMA wal_checkpoint(RESTART)');
      const afterCheckpoint = store.changeMark();
      other.prepare('UPDATE enrollments SET username = ?').run('four');
      assert.notEqual(store.changeMark(), afterCheckpoint);
    } finally {
      other.close();
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('concurrent transactions share one commit; each succeeds or fails alone, and is answered once committed', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'store-'));
    const path = join(dir, 'store.sqlite');
    const store = openStore({ path });
    const other = new DatabaseSync(path, { readOnly: true });
    const statements: string[] = [];
    const exec = DatabaseSync.prototype.exec;
    vi.spyOn(DatabaseSync.prototype, 'exec').mockImplementation(function (this: DatabaseSync, sql: string) {
      statements.push(sql);
      return exec.call(this, sql);
    });
    const committedElsewhere = (id: string) => other.prepare('SELECT id FROM enrollments WHERE id = ?').get(id) !== undefined;
    try {
      const outcomes = await Promise.allSettled([
        ...[1, 2, 3, 4].map((i) =>
          store
            .transaction(async (tx) => {
              await tx.enrollments.insert(enrollment(`enr_g${i}`));
              return i;
            })
            // Answered only once another connection can read it: committed.
            .then((value) => [value, committedElsewhere(`enr_g${i}`)]),
        ),
        store.transaction(async (tx) => {
          await tx.enrollments.insert(enrollment('enr_refused'));
          throw new Error('refused');
        }),
        store.transaction(async (tx) => {
          await tx.enrollments.insert(enrollment('enr_dup_first'));
          await tx.enrollments.insert(enrollment('enr_g1'));
        }),
        store.transaction(async (tx) => tx.enrollments.insert(enrollment('enr_late')), { durable: false }),
      ]);
      assert.deepEqual(
        outcomes.slice(0, 4).map((outcome) => (outcome.status === 'fulfilled' ? outcome.value : outcome.reason)),
        [
          [1, true],
          [2, true],
          [3, true],
          [4, true],
        ],
      );
      const [refused, duplicate, late] = outcomes.slice(4);
      assert.equal(refused?.status === 'rejected' && (refused.reason as Error).message, 'refused');
      assert.ok(duplicate?.status === 'rejected' && duplicate.reason instanceof UniqueViolation);
      assert.equal(late?.status, 'fulfilled');
      for (const id of ['enr_refused', 'enr_dup_first']) assert.equal(committedElsewhere(id), false, `${id} rolled back`);
      assert.equal(committedElsewhere('enr_late'), true);
      assert.deepEqual(
        statements.filter((sql) => sql === 'COMMIT'),
        ['COMMIT'],
        'one commit for the seven',
      );
      // A durable transaction in the batch: the whole commit is synced.
      assert.equal(statements.includes('PRAGMA synchronous = NORMAL'), false);
      statements.length = 0;
      await Promise.all(['enr_n1', 'enr_n2'].map((id) => store.transaction((tx) => tx.enrollments.insert(enrollment(id)), { durable: false })));
      assert.deepEqual(statements, [
        'PRAGMA synchronous = NORMAL',
        'BEGIN IMMEDIATE',
        'SAVEPOINT tx',
        'RELEASE tx',
        'SAVEPOINT tx',
        'RELEASE tx',
        'COMMIT',
        'PRAGMA synchronous = FULL',
      ]);
    } finally {
      other.close();
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('an error that ends the whole SQLite transaction fails the batch so far; the rest commit in the next', async () => {
    const db = new DatabaseSync(':memory:');
    db.exec('CREATE TABLE t (x TEXT)');
    // A full database: SQLite rolls back the whole transaction, not just the statement.
    db.exec('PRAGMA max_page_count = 3');
    let commits = 0;
    const group = new GroupCommit({
      db,
      tx: db,
      exclusive: (work) => work(),
      unavailable: () => undefined,
      committed: () => {
        commits += 1;
      },
    });
    const insert = (value: string) => async (tx: DatabaseSync) => void tx.prepare('INSERT INTO t VALUES (?)').run(value);
    const outcomes = await Promise.allSettled([
      group.run(insert('before'), true),
      group.run(async (tx) => {
        for (let i = 0; i < 100; i++) tx.prepare('INSERT INTO t VALUES (?)').run('x'.repeat(3000));
      }, true),
      group.run(insert('after'), true),
    ]);
    assert.deepEqual(
      outcomes.map((outcome) => outcome.status),
      ['rejected', 'rejected', 'fulfilled'],
    );
    assert.match((outcomes[0] as PromiseRejectedResult).reason.message, /full/);
    assert.deepEqual(
      db
        .prepare('SELECT x FROM t')
        .all()
        .map((row) => row.x),
      ['after'],
    );
    assert.equal(commits, 1);
    db.close();
  });

  test('the WAL index is read only when its header is a known, initialized one', () => {
    const dir = mkdtempSync(join(tmpdir(), 'wal-index-'));
    const path = join(dir, 'store.sqlite');
    try {
      assert.equal(watchWalIndex(path), undefined, 'no index file');
      const header = Buffer.alloc(136);
      header.writeUInt32LE(WAL_INDEX_VERSION + 1, 0);
      header[12] = 1;
      writeFileSync(`${path}-shm`, header);
      assert.equal(watchWalIndex(path), undefined, 'unknown version');
      header.writeUInt32LE(WAL_INDEX_VERSION, 0);
      header[12] = 0;
      writeFileSync(`${path}-shm`, header);
      assert.equal(watchWalIndex(path), undefined, 'not initialized');
      header[12] = 1;
      writeFileSync(`${path}-shm`, header);
      const watch = watchWalIndex(path);
      assert.ok(watch);
      assert.equal(watch.changed(), false);
      header.writeUInt32LE(7, 16);
      writeFileSync(`${path}-shm`, header);
      assert.equal(watch.changed(), true);
      assert.equal(watch.changed(), false);
      watch.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test("its change mark sees other connections' commits; PostgreSQL's says it cannot", () => {
    const memory = openStore({ path: ':memory:' });
    assert.equal(memory.seesOtherWriters, true);
    assert.equal(memory.changeMark(), memory.changeMark());
    void memory.close();
  });
});
