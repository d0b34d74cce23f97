// Transactions: order, pagination, ledger consistency, parameters, both versions, and the rendered JSON of each
// row that pages join.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { basic, type TestApp, testApp } from './helpers/harness.ts';

const cents = (money: string) => Math.round(Number(money) * 100);

describe('transactions', () => {
  let t: TestApp;
  let token: string;
  let accounts: any[];
  let all: any[];

  beforeAll(async () => {
    t = testApp();
    ({ token, accounts } = await t.enroll());
    all = (await t.call('GET', `/accounts/${accounts[0].id}/transactions`, { token })).body;
  });
  afterAll(() => t.close());

  test('90+ days of history, newest first, pending ones at the head', () => {
    assert.ok(all.length > 100);
    const dates = all.map((txn) => txn.date);
    assert.deepEqual([...dates].sort().reverse(), dates);
    const oldest = new Date(dates.at(-1)).getTime();
    assert.ok((Date.now() - oldest) / 86_400_000 >= 90);
    const pending = all.filter((txn) => txn.status === 'pending');
    assert.ok(pending.length > 0);
    const lastPending = all.findLastIndex((txn) => txn.status === 'pending');
    // Pending transactions are among the most recent days only.
    assert.ok(all.slice(lastPending + 1).every((txn) => txn.date <= all[lastPending].date));
    for (const txn of pending) assert.equal(txn.running_balance, null);
  });

  test('descriptions, types, categories and counterparties', () => {
    const types = new Set(all.map((txn) => txn.type));
    for (const type of ['card_payment', 'ach']) assert.ok(types.has(type), type);
    const enriched = all.filter((txn) => txn.details.processing_status === 'complete' && txn.details.category);
    assert.ok(enriched.length > 50);
    assert.ok(all.some((txn) => txn.details.counterparty.type === 'person'));
    assert.ok(all.every((txn) => txn.description.length > 0));
    assert.ok(all.every((txn) => txn.account_id === accounts[0].id));
  });

  test('histories hold card refunds (credit), card bill payments (payment) and fees', async () => {
    const card = accounts.find((a) => a.subtype === 'credit_card');
    const cardList = (await t.call('GET', `/accounts/${card.id}/transactions`, { token })).body;
    const refunds = cardList.filter((txn: any) => txn.type === 'credit');
    assert.ok(refunds.length > 0, 'a refund on the card');
    assert.ok(refunds.every((txn: any) => cents(txn.amount) < 0 && txn.description.startsWith('REFUND ')));
    const payments = cardList.filter((txn: any) => txn.type === 'payment');
    assert.ok(payments.length > 0, 'a card bill payment');
    assert.ok(payments.every((txn: any) => cents(txn.amount) < 0));
    const fees = all.filter((txn) => txn.type === 'fee');
    assert.ok(fees.length > 0, 'a fee on checking');
    assert.ok(fees.every((txn) => cents(txn.amount) < 0));
    // Deterministic: a second enrollment of the same user has the same ones.
    const again = await t.enroll();
    const againCard = again.accounts.find((a: any) => a.subtype === 'credit_card');
    const againList = (await t.call('GET', `/accounts/${againCard.id}/transactions`, { token: again.token })).body;
    const shape = (txn: any) => [txn.date, txn.amount, txn.type, txn.description];
    assert.deepEqual(againList.filter((txn: any) => txn.type === 'credit').map(shape), refunds.map(shape));
  });

  test('running balances agree with the ledger', async () => {
    const posted = all.filter((txn) => txn.status === 'posted');
    for (let i = 0; i < posted.length - 1; i++) {
      assert.equal(cents(posted[i].running_balance) - cents(posted[i].amount), cents(posted[i + 1].running_balance), `at ${posted[i].id}`);
    }
    const balances = (await t.call('GET', `/accounts/${accounts[0].id}/balances`, { token })).body;
    assert.equal(posted[0].running_balance, balances.ledger);
    const pendingDebits = all.filter((txn) => txn.status === 'pending').reduce((sum, txn) => sum + Math.min(0, cents(txn.amount)), 0);
    assert.equal(cents(balances.available), cents(balances.ledger) + pendingDebits);
  });

  test('count and from_id page through everything without gaps or repeats', async () => {
    const seen: string[] = [];
    let fromId: string | undefined;
    for (;;) {
      const query = `count=37${fromId ? `&from_id=${fromId}` : ''}`;
      const page = await t.call('GET', `/accounts/${accounts[0].id}/transactions?${query}`, { token });
      assert.equal(page.status, 200);
      assert.ok(page.body.length <= 37);
      seen.push(...page.body.map((txn: any) => txn.id));
      if (page.body.length < 37) break;
      fromId = page.body.at(-1).id;
    }
    assert.deepEqual(
      seen,
      all.map((txn) => txn.id),
    );
  });

  test('start_date and end_date are inclusive and combine with paging', async () => {
    const start = all[40].date;
    const end = all[10].date;
    const reply = await t.call('GET', `/accounts/${accounts[0].id}/transactions?start_date=${start}&end_date=${end}`, { token });
    assert.deepEqual(
      reply.body.map((txn: any) => txn.id),
      all.filter((txn) => txn.date >= start && txn.date <= end).map((txn) => txn.id),
    );
    const first = await t.call('GET', `/accounts/${accounts[0].id}/transactions?start_date=${start}&end_date=${end}&count=5`, { token });
    const rest = await t.call('GET', `/accounts/${accounts[0].id}/transactions?start_date=${start}&end_date=${end}&from_id=${first.body[4].id}`, {
      token,
    });
    assert.deepEqual(
      [...first.body, ...rest.body].map((txn: any) => txn.id),
      reply.body.map((txn: any) => txn.id),
    );
  });

  test('invalid parameters: 422 with params naming each one', async () => {
    const reply = await t.call('GET', `/accounts/${accounts[0].id}/transactions?count=0&start_date=yesterday&end_date=2020-13-45`, { token });
    assert.equal(reply.status, 422);
    assert.equal(reply.body.error.code, 'unprocessable_entity');
    assert.deepEqual(Object.keys(reply.body.error.params).sort(), ['count', 'end_date', 'start_date']);
    const big = await t.call('GET', `/accounts/${accounts[0].id}/transactions?count=10001`, { token });
    assert.equal(big.status, 422);
    assert.ok(big.body.error.params.count);
    const text = await t.call('GET', `/accounts/${accounts[0].id}/transactions?count=ten`, { token });
    assert.equal(text.status, 422);
    const cursor = await t.call('GET', `/accounts/${accounts[0].id}/transactions?from_id=txn_unknown`, { token });
    assert.equal(cursor.status, 422);
    assert.ok(cursor.body.error.params.from_id);
    const order = await t.call('GET', `/accounts/${accounts[0].id}/transactions?start_date=2024-02-01&end_date=2024-01-01`, { token });
    assert.equal(order.status, 422);
  });

  test('empty query values are values: 422, not the unfiltered list', async () => {
    const reply = await t.call('GET', `/accounts/${accounts[0].id}/transactions?count=&start_date=&end_date=`, { token });
    assert.equal(reply.status, 422);
    assert.deepEqual(Object.keys(reply.body.error.params).sort(), ['count', 'end_date', 'start_date']);
  });

  test('one transaction; unknown ids are 404', async () => {
    const reply = await t.call('GET', `/accounts/${accounts[0].id}/transactions/${all[3].id}`, { token });
    assert.equal(reply.status, 200);
    assert.deepEqual(reply.body, all[3]);
    assert.equal(reply.headers.get('service-enrollment-status'), 'healthy');
    const missing = await t.call('GET', `/accounts/${accounts[0].id}/transactions/txn_missing`, { token });
    assert.equal(missing.status, 404);
    // A transaction of another account of the same enrollment is not found under this one.
    const other = await t.call('GET', `/accounts/${accounts[1].id}/transactions/${all[3].id}`, { token });
    assert.equal(other.status, 404);
  });

  test('2019-07-01: top-level counterparty, no status/account_id/running_balance/details', async () => {
    const reply = await t.call('GET', `/accounts/${accounts[0].id}/transactions?count=20`, { token, version: '2019-07-01' });
    assert.equal(reply.status, 200);
    for (const [i, txn] of reply.body.entries()) {
      assert.deepEqual(Object.keys(txn).sort(), ['amount', 'counterparty', 'date', 'description', 'id', 'links', 'type']);
      assert.equal(txn.counterparty, all[i].details.counterparty.name);
    }
    const one = await t.call('GET', `/accounts/${accounts[0].id}/transactions/${all[0].id}`, { token, version: '2019-07-01' });
    assert.equal(one.body.id, all[0].id);
    assert.equal(one.body.status, undefined);
  });

  test('credit card purchases are positive; payments negative', async () => {
    const card = accounts.find((a) => a.subtype === 'credit_card');
    const list = (await t.call('GET', `/accounts/${card.id}/transactions`, { token })).body;
    assert.ok(list.filter((txn: any) => txn.type === 'card_payment').every((txn: any) => cents(txn.amount) > 0));
  });

  test('posted card transactions have no running balance', async () => {
    const card = accounts.find((a) => a.subtype === 'credit_card');
    await t.call('POST', '/sandbox/clock/advance', { token, json: { days: 4 } });
    const list = (await t.call('GET', `/accounts/${card.id}/transactions`, { token })).body;
    const posted = list.filter((txn: any) => txn.status === 'posted');
    assert.ok(posted.length > 30);
    for (const txn of posted) assert.equal(txn.running_balance, null, txn.id);
    const checking = (await t.call('GET', `/accounts/${accounts[0].id}/transactions?count=5`, { token })).body;
    assert.ok(checking.some((txn: any) => txn.status === 'posted' && txn.running_balance !== null));
  });
});

describe('large history', () => {
  let t: TestApp;
  beforeAll(() => {
    t = testApp();
  });
  afterAll(() => t.close());

  test('a long list is streamed and pages deep are served by the index', async () => {
    const { token, accounts } = await t.enroll('history.20000');
    const id = accounts[0].id;
    const response = await t.app.fetch(
      new Request(`http://localhost/accounts/${id}/transactions`, {
        headers: { authorization: `Basic ${Buffer.from(`${token}:`).toString('base64')}` },
      }),
    );
    assert.equal(response.status, 200);
    // Arrives in several chunks, not one prebuilt body.
    let chunks = 0;
    let text = '';
    const decoder = new TextDecoder();
    const reader = response.body!.getReader();
    for (let part = await reader.read(); !part.done; part = await reader.read()) {
      chunks++;
      text += decoder.decode(part.value, { stream: true });
    }
    const list = JSON.parse(text);
    assert.ok(list.length >= 20000);
    assert.ok(chunks > 10);
    const deep = await t.call('GET', `/accounts/${id}/transactions?count=10&from_id=${list[19000].id}`, { token });
    assert.deepEqual(
      deep.body.map((txn: any) => txn.id),
      list.slice(19001, 19011).map((txn: any) => txn.id),
    );
  });
});

describe('an unpaged list, streamed a page at a time', () => {
  let t: TestApp;
  beforeAll(() => {
    t = testApp();
  });
  afterAll(() => t.close());

  /** The unpaged list's body as text, and the same list read in pages of 100 joined, in one version. */
  const both = async (token: string, id: string, version: string, query = '') => {
    const text = (await t.call('GET', `/accounts/${id}/transactions${query ? `?${query}` : ''}`, { token, version })).text;
    const pages: unknown[] = [];
    for (let from: string | undefined; ; ) {
      const page = (
        await t.call('GET', `/accounts/${id}/transactions?count=100${from ? `&from_id=${from}` : ''}${query ? `&${query}` : ''}`, { token, version })
      ).body as { id: string }[];
      pages.push(...page);
      if (page.length < 100) break;
      from = page.at(-1)!.id;
    }
    return { text, paged: JSON.stringify(pages) };
  };

  test('its bytes are the JSON array its pages give, in each version, across the pages of 500 it is read in', async () => {
    const { token, accounts } = await t.enroll('history.1200');
    for (const version of ['2020-10-12', '2019-07-01']) {
      const { text, paged } = await both(token, accounts[0].id, version);
      assert.ok((JSON.parse(text) as unknown[]).length >= 1200, version);
      assert.equal(text, paged, version);
    }
  });

  test('an empty one is []', async () => {
    const { token, accounts } = await t.enroll();
    const { text } = await both(token, accounts[0].id, '2020-10-12', 'start_date=2999-01-01');
    assert.equal(text, '[]');
  });
});

describe("a page joins its rows' JSON, kept per row version", () => {
  let dir: string;
  /** Keeps rendered rows, as shipped; `fresh` keeps none and renders every row of every page: the oracle. */
  let kept: TestApp;
  let fresh: TestApp;

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'server-rendered-rows-'));
    const databasePath = join(dir, 'sandbox.sqlite');
    kept = testApp({ databasePath });
    fresh = testApp({ databasePath, renderedRowsBytes: 0 });
  });
  afterAll(async () => {
    await kept.close();
    await fresh.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const rows = () => kept.app.runtime.renderedRows;
  /** Reads the page through both apps: the same text; returns how many of its rows `kept` joined from kept JSON. */
  const page = async (token: string, path: string, version?: string) => {
    const hits = rows().hits;
    const read = await kept.call('GET', path, { token, ...(version ? { version } : {}) });
    const rendered = await fresh.call('GET', path, { token, ...(version ? { version } : {}) });
    assert.equal(read.status, 200, read.text);
    assert.equal(read.text, rendered.text, `${path}: the joined page equals the page rendered whole`);
    return { body: read.body as any[], joined: rows().hits - hits };
  };

  test('a row written anew renders again; the others are joined as kept', async () => {
    const { token, accounts, enrollmentId } = await kept.enroll();
    const path = `/accounts/${accounts[0].id}/transactions?count=50`;
    assert.equal((await page(token, path)).joined, 0);
    const { body, joined } = await page(token, path);
    assert.equal(joined, 50, 'every row kept');
    await kept.app.store.transaction((tx) => tx.transactions.update(body[3].id, { description: 'Changed in place' }), {
      changes: { enrollment: enrollmentId },
    });
    const after = await page(token, path);
    assert.equal(after.body[3].description, 'Changed in place');
    assert.equal(after.joined, 49);
    const paid = await kept.call('POST', `/accounts/${accounts[0].id}/payments`, {
      token,
      json: { amount: '3.21', memo: 'Joined', payee: { scheme: 'zelle', address: 'joined@example.com', name: 'Jo', type: 'person' } },
    });
    assert.equal(paid.status, 202, paid.text);
    const paidPage = await page(token, path);
    assert.equal(paidPage.body[0].amount, '-3.21');
    assert.equal(paidPage.joined, 49, 'the new row rendered, the rest kept');
  });

  test('a clock move that posts and enriches rows renders them again', async () => {
    const { token, accounts } = await kept.enroll();
    const path = `/accounts/${accounts[0].id}/transactions?count=100`;
    const before = await page(token, path);
    assert.ok(before.body.some((txn) => txn.status === 'pending' || txn.details.processing_status === 'pending'));
    await page(token, path);
    assert.equal((await kept.call('POST', '/sandbox/clock/advance', { token, json: { days: 3 } })).status, 200);
    const after = await page(token, path);
    const changed = before.body.filter((was) => {
      const now = after.body.find((txn) => txn.id === was.id);
      return now && JSON.stringify(now) !== JSON.stringify(was);
    });
    assert.ok(changed.length > 0, 'posting or enrichment changed rows the page showed');
  });

  test("another version, asked for or the application's after an upgrade, renders in its own shape", async () => {
    const created = await kept.call('POST', '/sandbox/applications', { json: { default_version: '2019-07-01' } });
    const enrolled = await kept.call('POST', '/sandbox/enrollments', {
      headers: { authorization: basic(created.body.key) },
      json: { username: 'username', password: 'password' },
    });
    const token = enrolled.body.access_token as string;
    const path = `/accounts/${enrolled.body.accounts[0].id}/transactions?count=20`;
    const older = await page(token, path);
    assert.equal(older.body[0].status, undefined, 'the 2019-07-01 shape');
    assert.equal((await page(token, path)).joined, 20);
    assert.equal((await page(token, path, '2020-10-12')).joined, 0, 'the same rows in another version are rendered');
    const upgraded = await kept.call('POST', '/sandbox/application/version', { token, json: { version: '2020-10-12' } });
    assert.equal(upgraded.status, 200, upgraded.text);
    const current = await page(token, path);
    assert.equal(typeof current.body[0].status, 'string', 'the 2020-10-12 shape');
    assert.equal(current.joined, 20, 'kept from the read in that version');
  });
});
