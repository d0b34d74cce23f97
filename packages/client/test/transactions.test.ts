import assert from 'node:assert/strict';
import { describe, it } from 'vitest';
import {
  ApiError,
  ConnectionError,
  createClient,
  iteratePages,
  iterateTransactions,
  type PageQuery,
  reconcileTransactions,
  syncTransactions,
  syncWindowStart,
  type Transaction,
} from '../src/index.ts';
import { apiError, fakeFetch, json } from './helpers/fake-fetch.ts';

type Txn = { id: string; date: string; status: 'posted' | 'pending'; amount: string; description: string };

/** Newest first, like the service; serves `count`/`from_id`/`start_date`/`end_date` the way the contract says. */
function ledger(transactions: Txn[]) {
  const sorted = [...transactions].sort((a, b) => (a.date === b.date ? b.id.localeCompare(a.id) : b.date.localeCompare(a.date)));
  const queries: PageQuery[] = [];
  const page = async (query: PageQuery): Promise<Txn[]> => {
    queries.push(query);
    let rows = sorted.filter((t) => (!query.start_date || t.date >= query.start_date) && (!query.end_date || t.date <= query.end_date));
    if (query.from_id) rows = rows.slice(rows.findIndex((t) => t.id === query.from_id) + 1);
    return rows.slice(0, query.count);
  };
  return { page, queries, sorted };
}

function txn(n: number, date: string, status: Txn['status'] = 'posted', amount = '-1.00'): Txn {
  return { id: `txn_${String(n).padStart(3, '0')}`, date, status, amount, description: `T${n}` };
}

const days = (from: string, count: number) =>
  Array.from({ length: count }, (_, i) => new Date(Date.parse(from) + i * 86_400_000).toISOString().slice(0, 10));

describe('iterateTransactions', () => {
  const history = days('2024-01-01', 25).map((date, i) => txn(i + 1, date));

  it('pages with count and from_id until a short page', async () => {
    const { page, queries, sorted } = ledger(history);
    const seen: string[] = [];
    for await (const t of iterateTransactions(page, { pageSize: 10 })) seen.push(t.id);
    assert.deepEqual(
      seen,
      sorted.map((t) => t.id),
    );
    assert.deepEqual(queries, [{ count: 10 }, { count: 10, from_id: sorted[9]?.id }, { count: 10, from_id: sorted[19]?.id }]);
  });

  it('stops after an empty page when the total is a multiple of the page size', async () => {
    const { page, queries } = ledger(history.slice(0, 20));
    const all = [];
    for await (const t of iterateTransactions(page, { pageSize: 10 })) all.push(t);
    assert.equal(all.length, 20);
    assert.equal(queries.length, 3);
  });

  it('keeps the date range on every page', async () => {
    const { page, queries } = ledger(history);
    const seen = [];
    for await (const t of iterateTransactions(page, { pageSize: 3, startDate: '2024-01-05', endDate: new Date('2024-01-12T23:00:00Z') })) {
      seen.push(t.date);
    }
    assert.equal(seen.length, 8);
    assert.ok(seen.every((d) => d >= '2024-01-05' && d <= '2024-01-12'));
    assert.ok(queries.every((q) => q.start_date === '2024-01-05' && q.end_date === '2024-01-12'));
  });

  it('yields whole pages with iteratePages', async () => {
    const { page } = ledger(history);
    const sizes = [];
    for await (const p of iteratePages(page, { pageSize: 10 })) sizes.push(p.length);
    assert.deepEqual(sizes, [10, 10, 5]);
  });

  it('ends instead of looping when the server ignores the cursor', async () => {
    const first = history.slice(0, 5);
    let calls = 0;
    const stuck = async () => {
      calls++;
      return first;
    };
    const seen = [];
    for await (const t of iterateTransactions(stuck, { pageSize: 5 })) seen.push(t);
    assert.equal(seen.length, 5);
    assert.equal(calls, 2);
  });

  it('rejects a bad page size and a bad date', async () => {
    const { page } = ledger(history);
    await assert.rejects(iterateTransactions(page, { pageSize: 0 }).next(), RangeError);
    await assert.rejects(iterateTransactions(page, { pageSize: 10_001 }).next(), RangeError);
    await assert.rejects(iterateTransactions(page, { startDate: '01/02/2024' }).next(), RangeError);
  });

  it('through the client: typed query parameters on the wire', async () => {
    const { page } = ledger(history);
    const { fetch, calls } = fakeFetch(async (request) => {
      const q = request.url.searchParams;
      const query: PageQuery = { count: Number(q.get('count')) };
      for (const key of ['from_id', 'start_date', 'end_date'] as const) {
        const value = q.get(key);
        if (value) query[key] = value;
      }
      return json(await page(query));
    });
    const client = createClient({ token: 'test_token_x', baseUrl: 'https://api.test', fetch });
    let count = 0;
    for await (const t of client.transactions.iterate('acc_1', { pageSize: 10, startDate: '2024-01-03' })) {
      assert.equal(typeof t.id, 'string');
      count++;
    }
    assert.equal(count, 23);
    assert.equal(calls[0]?.url.pathname, '/accounts/acc_1/transactions');
    assert.equal(calls[1]?.url.search, `?count=10&start_date=2024-01-03&from_id=txn_016`);
  });
});

describe('sync', () => {
  it('the window starts 7 to 10 days before the last sync', () => {
    assert.equal(syncWindowStart('2024-05-20T08:00:00Z'), '2024-05-10');
    assert.equal(syncWindowStart('2024-05-20T08:00:00Z', 7), '2024-05-13');
    assert.equal(syncWindowStart('2024-05-20T08:00:00Z', 3), '2024-05-13');
    assert.equal(syncWindowStart('2024-05-20T08:00:00Z', 30), '2024-05-10');
    assert.throws(() => syncWindowStart('yesterday'), RangeError);
  });

  it('first sync reads the whole history and inserts everything', async () => {
    const history = days('2024-01-01', 12).map((date, i) => txn(i + 1, date));
    const { page, queries } = ledger(history);
    const now = new Date('2024-01-13T10:00:00Z');
    const result = await syncTransactions(page, { pageSize: 5, now });
    assert.equal(result.inserted.length, 12);
    assert.deepEqual([result.updated, result.removed, result.unchanged], [[], [], 0]);
    assert.deepEqual(result.window, {});
    assert.deepEqual(result.state, { lastSyncedAt: '2024-01-13T10:00:00.000Z' });
    assert.equal(queries[0]?.start_date, undefined);
  });

  it('a later sync inserts new ids, updates changed ones and removes vanished pending ones', async () => {
    // Stored after the previous sync on 2024-05-20.
    const old = txn(1, '2024-04-01');
    const posted = txn(2, '2024-05-15');
    const pendingThatPosts = txn(3, '2024-05-18', 'pending', '-12.00');
    const pendingReplaced = txn(4, '2024-05-19', 'pending', '-30.00');
    const pendingOutsideWindow = txn(5, '2024-05-01', 'pending');
    const known = [old, posted, pendingThatPosts, pendingReplaced, pendingOutsideWindow];

    // What the service has now.
    const now = [
      old,
      posted,
      { ...pendingThatPosts, status: 'posted' as const, date: '2024-05-21' }, // same id, posted on another date
      txn(9, '2024-05-21', 'posted', '-30.50'), // replaced pending txn_004 under a new id
      txn(10, '2024-05-22'),
      pendingOutsideWindow,
    ];
    const { page, queries } = ledger(now);
    const result = await syncTransactions(page, {
      state: { lastSyncedAt: '2024-05-20T09:00:00Z' },
      known,
      now: new Date('2024-05-23T09:00:00Z'),
    });
    assert.deepEqual(result.window, { start_date: '2024-05-10' });
    assert.equal(queries[0]?.start_date, '2024-05-10');
    assert.deepEqual(result.inserted.map((t) => t.id).sort(), ['txn_009', 'txn_010']);
    assert.deepEqual(
      result.updated.map((t) => [t.id, t.status, t.date]),
      [['txn_003', 'posted', '2024-05-21']],
    );
    assert.deepEqual(
      result.removed.map((t) => t.id),
      ['txn_004'],
    );
    assert.equal(result.unchanged, 1); // txn_002; txn_001 and txn_005 are outside the window
    assert.equal(result.state.lastSyncedAt, '2024-05-23T09:00:00.000Z');
  });

  it('accepts the stored transactions as a Map', async () => {
    const t = txn(1, '2024-05-19', 'pending');
    const result = reconcileTransactions(new Map([[t.id, t]]), [{ ...t, description: 'Coffee shop' }], { start_date: '2024-05-10' });
    assert.deepEqual(
      result.updated.map((x) => x.description),
      ['Coffee shop'],
    );
  });

  it('treats key order as no change', () => {
    const a = { id: 'txn_1', date: '2024-05-19', details: { category: null, processing_status: 'complete' } };
    const b = { details: { processing_status: 'complete', category: null }, date: '2024-05-19', id: 'txn_1' };
    assert.equal(reconcileTransactions(new Map([[a.id, a]]), [b]).unchanged, 1);
  });

  it('retries the first call of a large history after a pause', async () => {
    const history = days('2024-01-01', 3).map((date, i) => txn(i + 1, date));
    const { page } = ledger(history);
    let attempts = 0;
    const flaky = async (query: PageQuery) => {
      attempts++;
      if (attempts <= 2) throw new ApiError({ status: 504, code: 'gateway_timeout', message: 'timeout' });
      return page(query);
    };
    const waits: number[] = [];
    const result = await syncTransactions(flaky, {
      firstCallRetryDelayMs: 4_000,
      sleep: async (ms) => {
        waits.push(ms);
      },
    });
    assert.equal(result.inserted.length, 3);
    assert.deepEqual(waits, [4_000, 4_000]);
  });

  it('does not retry a first call that failed for a non-transient reason, nor later pages', async () => {
    const gone = async () => {
      throw new ApiError({ status: 410, code: 'account.closed', message: 'closed' });
    };
    await assert.rejects(syncTransactions(gone, { sleep: async () => {} }), (e: ApiError) => e.status === 410);

    let calls = 0;
    const laterFails = async (query: PageQuery) => {
      calls++;
      if (query.from_id) throw new ConnectionError('reset');
      return [txn(1, '2024-01-01'), txn(2, '2024-01-02')];
    };
    await assert.rejects(syncTransactions(laterFails, { pageSize: 2, sleep: async () => {} }), ConnectionError);
    assert.equal(calls, 2);
  });

  it('through the client', async () => {
    const history = [txn(1, '2024-05-18', 'pending'), txn(2, '2024-05-19')];
    const { fetch, calls } = fakeFetch((request, i) => {
      if (i === 0) return apiError(504, 'gateway_timeout');
      return json(history.filter((t) => t.date >= (request.url.searchParams.get('start_date') ?? '')));
    });
    const client = createClient({ token: 'test_token_x', baseUrl: 'https://api.test', fetch, retry: false });
    const result = await client.transactions.sync('acc_1', {
      state: { lastSyncedAt: '2024-05-20T00:00:00Z' },
      // The stored rows only need the fields the sync reads.
      known: [txn(3, '2024-05-17', 'pending')] as unknown as Transaction[],
      firstCallRetryDelayMs: 1,
    });
    assert.deepEqual(
      result.inserted.map((t) => t.id),
      ['txn_001', 'txn_002'],
    );
    assert.deepEqual(
      result.removed.map((t) => t.id),
      ['txn_003'],
    );
    assert.equal(calls.length, 2);
    assert.equal(calls[1]?.url.searchParams.get('start_date'), '2024-05-10');
  });
});
