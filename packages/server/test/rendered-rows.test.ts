// The kept JSON of transaction rows: found by row id, answered only for the same row version and shape, and bounded.
import assert from 'node:assert/strict';
import { test } from 'vitest';
import { RenderedRows } from '../src/http/rendered-rows.ts';

const CURRENT = '2020-10-12\nhttp://localhost:3000';
const OLDER = '2019-07-01\nhttp://localhost:3000';
const json = (text: string) => Buffer.from(text);

test('a row is answered in each shape it was kept in, and only at its version', () => {
  const rows = new RenderedRows(1024 * 1024);
  rows.set(CURRENT, { id: 'txn_1', version: 0 }, json('{"v":"current"}'));
  rows.set(OLDER, { id: 'txn_1', version: 0 }, json('{"v":"older"}'));
  assert.equal(rows.get(CURRENT, { id: 'txn_1', version: 0 })?.toString(), '{"v":"current"}');
  assert.equal(rows.get(OLDER, { id: 'txn_1', version: 0 })?.toString(), '{"v":"older"}');
  assert.equal(rows.get('2020-10-12\nhttps://sandbox.example.com', { id: 'txn_1', version: 0 }), undefined, 'another base of links');
  assert.equal(rows.get(CURRENT, { id: 'txn_1', version: 1 }), undefined, 'a changed row is not answered');
  assert.equal(rows.get(CURRENT, { id: 'txn_2', version: 0 }), undefined);
  assert.deepEqual({ hits: rows.hits, misses: rows.misses }, { hits: 2, misses: 3 });
});

test("a row's new version replaces every shape of the old one; the same shape is replaced, not added", () => {
  const rows = new RenderedRows(1024 * 1024);
  rows.set(CURRENT, { id: 'txn_1', version: 0 }, json('{"old":1}'));
  rows.set(OLDER, { id: 'txn_1', version: 0 }, json('{"old":2}'));
  const twoShapes = rows.keptBytes;
  rows.set(CURRENT, { id: 'txn_1', version: 1 }, json('{"new":1}'));
  assert.equal(rows.get(CURRENT, { id: 'txn_1', version: 1 })?.toString(), '{"new":1}');
  assert.equal(rows.get(OLDER, { id: 'txn_1', version: 1 }), undefined, 'the older shape was of the old version');
  assert.equal(rows.get(OLDER, { id: 'txn_1', version: 0 }), undefined);
  assert.ok(rows.keptBytes < twoShapes, 'the old version is no longer counted');
  const one = rows.keptBytes;
  rows.set(CURRENT, { id: 'txn_1', version: 1 }, json('{"new":2}'));
  assert.equal(rows.keptBytes, one);
  assert.equal(rows.get(CURRENT, { id: 'txn_1', version: 1 })?.toString(), '{"new":2}');
});

test('what is kept stays within the budget, least recently used first out; a budget of 0 keeps nothing', () => {
  const budget = 64 * 1024;
  const rows = new RenderedRows(budget);
  const body = json('x'.repeat(1000));
  for (let i = 0; i < 200; i++) rows.set(CURRENT, { id: `txn_${i}`, version: 0 }, body);
  assert.ok(rows.keptBytes <= budget, `${rows.keptBytes} within ${budget}`);
  assert.ok(rows.keptBytes > budget / 2);
  assert.equal(rows.get(CURRENT, { id: 'txn_0', version: 0 }), undefined, 'the first went first');
  assert.ok(rows.get(CURRENT, { id: 'txn_199', version: 0 }));
  const none = new RenderedRows(0);
  none.set(CURRENT, { id: 'txn_1', version: 0 }, body);
  assert.equal(none.get(CURRENT, { id: 'txn_1', version: 0 }), undefined);
  assert.equal(none.keptBytes, 0);
});
