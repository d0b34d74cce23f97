// The embedded store: migrations, durability settings, atomic transactions, unique keys,
// keyset pages, and reopening a file.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { after, before, describe, test } from 'node:test';
import { openStore, type Store } from '../src/index.ts';
import { UniqueViolation, type TransactionRow } from '../src/storage/store.ts';
import { migrations } from '../src/storage/sqlite/migrations.ts';

const enrollment = (id: string) => ({
  id,
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
});

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

describe('sqlite store', () => {
  let dir: string;
  let path: string;
  let store: Store;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'store-'));
    path = join(dir, 'nested', 'store.sqlite');
    store = openStore({ path });
    await store.transaction(async (tx) => {
      await tx.enrollments.insert(enrollment('enr_1'));
      await tx.accounts.insert(account('acc_1', 'enr_1'));
    });
  });
  after(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test('migrations are numbered and recorded; the file is in WAL mode', () => {
    const db = new DatabaseSync(path, { readOnly: true });
    const applied = db.prepare('SELECT version FROM migrations ORDER BY version').all() as { version: number }[];
    assert.deepEqual(applied.map((row) => row.version), migrations.map((m) => m.version));
    assert.equal((db.prepare('PRAGMA journal_mode').get() as { journal_mode: string }).journal_mode, 'wal');
    db.close();
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

  test('reads outside a transaction see committed data only', async () => {
    let seenInside: string | undefined;
    await store.transaction(async (tx) => {
      await tx.enrollments.update('enr_1', { username: 'changed' });
      seenInside = (await store.enrollments.get('enr_1'))!.username;
    });
    assert.equal(seenInside, 'username');
    assert.equal((await store.enrollments.get('enr_1'))!.username, 'changed');
  });

  test('unique keys raise UniqueViolation (concurrent idempotency keys)', async () => {
    const row = { scope: 'enr_1', key: 'k', request_hash: 'h', status: 202, response: '{}', created_at: 1 };
    await store.transaction((tx) => tx.idempotency.insert(row));
    await assert.rejects(store.transaction((tx) => tx.idempotency.insert(row)), UniqueViolation);
  });

  test('booleans round-trip', async () => {
    const row = await store.accounts.get('enr_1', 'acc_1');
    assert.equal(row!.payments_supported, true);
    assert.equal((await store.enrollments.get('enr_1'))!.disconnect_on_use, false);
  });

  test('keyset pages: newest first, strictly older than the cursor, date filters, via the index', async () => {
    const rows: TransactionRow[] = [];
    for (let seq = 1; seq <= 3000; seq++) rows.push(txn('acc_1', seq, `2024-0${1 + Math.floor((seq - 1) / 1000)}-${String(1 + ((seq - 1) % 28)).padStart(2, '0')}`));
    await store.transaction((tx) => tx.transactions.insertMany(rows));
    const sorted = [...rows].sort((a, b) => (a.date === b.date ? b.seq - a.seq : a.date < b.date ? 1 : -1));
    const first = await store.transactions.page('acc_1', { limit: 10 });
    assert.deepEqual(first.map((r) => r.id), sorted.slice(0, 10).map((r) => r.id));
    const cursor = sorted[2500]!;
    const deep = await store.transactions.page('acc_1', { before: { date: cursor.date, seq: cursor.seq }, limit: 5 });
    assert.deepEqual(deep.map((r) => r.id), sorted.slice(2501, 2506).map((r) => r.id));
    const ranged = await store.transactions.page('acc_1', { startDate: '2024-02-01', endDate: '2024-02-28', limit: 5000 });
    assert.equal(ranged.length, 1000);
    const db = new DatabaseSync(path, { readOnly: true });
    const plan = db
      .prepare('EXPLAIN QUERY PLAN SELECT * FROM transactions WHERE account_id = ? AND (date, seq) < (?, ?) ORDER BY date DESC, seq DESC LIMIT ?')
      .all('acc_1', '2024-02-01', 5, 10) as { detail: string }[];
    db.close();
    assert.ok(plan.some((step) => /USING INDEX transactions_by_account_date/.test(step.detail)));
    assert.ok(!plan.some((step) => /TEMP B-TREE/.test(step.detail)), 'no sort step');
  });

  test('data survives closing and reopening the file', async () => {
    await store.close();
    store = openStore({ path });
    assert.equal((await store.enrollments.get('enr_1'))!.username, 'changed');
    assert.equal((await store.transactions.maxSeq('acc_1')), 3000);
  });

  test('in memory: the same behaviour', async () => {
    const memory = openStore({ path: ':memory:' });
    await memory.transaction((tx) => tx.enrollments.insert(enrollment('enr_m')));
    assert.equal((await memory.enrollments.get('enr_m'))!.id, 'enr_m');
    await memory.close();
    await assert.rejects(memory.transaction(async () => undefined));
  });
});
