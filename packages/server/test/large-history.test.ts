// `history.<n>` users: a large history is written without holding the event loop, other
// requests keep being answered meanwhile, and `n` is capped by a setting.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { openStore } from '../src/storage/index.ts';
import type { Repos, Store } from '../src/storage/store.ts';
import { type TestApp, testApp } from './helpers/harness.ts';
import { appOptions, describeUnless, storeKinds } from './helpers/stores.ts';

/** Rows of the large history: enough for many batches, little enough for a few seconds on a busy machine. */
const ROWS = 30_000;
/**
 * Longest the event loop may stall while it is written, as a share of the time writing takes (the
 * machine may be shared and slow: a time of its own would measure the machine). Written in one go,
 * the stall is the whole time.
 */
const MAX_STALL_SHARE = 0.2;
/** A batch smaller than a day of history.10000. */
const SPLIT_BATCH_ROWS = 20;

describe('large sandbox histories', () => {
  let dir: string;
  let t: TestApp;

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'server-history-'));
    t = testApp({ databasePath: join(dir, 'sandbox.sqlite'), maxHistory: 100_000 });
  });
  afterAll(async () => {
    await t.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test('while a large history is written, the event loop keeps turning and other requests are answered', async () => {
    const { token } = await t.enroll();
    const delay = monitorEventLoopDelay({ resolution: 10 });
    delay.enable();
    const started = performance.now();
    const creating = t.call('POST', '/sandbox/enrollments', { json: { username: `history.${ROWS}`, password: 'password' } });
    let answered = 0;
    let slowest = 0;
    let done = false;
    void creating.finally(() => {
      done = true;
    });
    while (!done) {
      const asked = performance.now();
      const reply = await t.call('GET', '/accounts', { token });
      assert.equal(reply.status, 200);
      slowest = Math.max(slowest, performance.now() - asked);
      answered += 1;
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    delay.disable();
    const created = await creating;
    const seconds = (performance.now() - started) / 1000;
    assert.equal(created.status, 201, created.text);
    const stallMs = delay.max / 1e6;
    const report = `${answered} reads answered in ${seconds.toFixed(1)} s; longest stall ${stallMs.toFixed(0)} ms, slowest read ${slowest.toFixed(0)} ms`;
    assert.ok(answered >= 10, report);
    assert.ok(stallMs < seconds * 1000 * MAX_STALL_SHARE, report);

    const account = created.body.accounts[0];
    const all = await t.call('GET', `/accounts/${account.id}/transactions`, { token: created.body.access_token });
    assert.ok(all.body.length >= ROWS && all.body.length <= ROWS + 400, `${all.body.length} transactions`);
  });

  test('a day of history larger than a batch is split across transactions', async () => {
    // history.10000: 27 rows a day, more than a batch of 20 holds (as a day of history.1000000 is more than the
    // default batch).
    const store = openStore({ path: join(dir, 'split.sqlite') });
    const rowsPerTransaction: number[] = [];
    const transaction = store.transaction.bind(store);
    store.transaction = ((fn, options) =>
      transaction(async (tx, lastWrites) => {
        let rows = 0;
        const transactions = Object.create(tx.transactions) as Repos['transactions'];
        transactions.insertMany = (inserted) => {
          rows += inserted.length;
          return tx.transactions.insertMany(inserted);
        };
        const counted = Object.create(tx, { transactions: { value: transactions } }) as Repos;
        try {
          return await fn(counted, lastWrites);
        } finally {
          rowsPerTransaction.push(rows);
        }
      }, options)) as Store['transaction'];
    const split = testApp({ store, historyBatchRows: SPLIT_BATCH_ROWS });
    try {
      const created = await split.call('POST', '/sandbox/enrollments', { json: { username: 'history.10000', password: 'password' } });
      assert.equal(created.status, 201, created.text);
      // The last transaction writes today's activity and makes the enrollment usable; each before it, one batch at most.
      const batches = rowsPerTransaction.slice(0, -1);
      assert.ok(batches.length > 300, `${batches.length} batches`);
      assert.ok(Math.max(...batches) <= SPLIT_BATCH_ROWS, `largest batch ${Math.max(...batches)} rows`);
    } finally {
      await split.close();
      await store.close();
    }
  });

  test("n above the server's cap answers 422 naming the username; nothing is created", async () => {
    const reply = await t.call('POST', '/sandbox/enrollments', { json: { username: 'history.100001', password: 'password' } });
    assert.equal(reply.status, 422, reply.text);
    assert.ok(reply.body.error.params.username, reply.text);
  });
});

for (const kind of await storeKinds()) {
  describeUnless(kind.skip, `a history written in batches (${kind.name})`, () => {
    let t: TestApp;
    beforeAll(async () => {
      t = testApp(appOptions(await kind.location()));
    });
    afterAll(() => t.close());

    test('is whole, its balances run on, and it is the same for the same user', async () => {
      const transactions = async () => {
        const created = await t.call('POST', '/sandbox/enrollments', { json: { username: 'history.3000', password: 'password' } });
        assert.equal(created.status, 201, created.text);
        const list = await t.call('GET', `/accounts/${created.body.accounts[0].id}/transactions`, { token: created.body.access_token });
        return list.body.map((txn: any) => `${txn.date} ${txn.amount} ${txn.running_balance} ${txn.description}`);
      };
      const first = await transactions();
      assert.ok(first.length >= 3_000, `${first.length} transactions`);
      assert.deepEqual(await transactions(), first);
    });
  });
}
