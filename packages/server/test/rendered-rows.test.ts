// The kept JSON of transaction rows: found by row stamp, answered only for the same stamp and shape, and bounded.
import assert from 'node:assert/strict';
import { test } from 'vitest';
import { RenderedRows } from '../src/http/rendered-rows.ts';

const CURRENT = '2020-10-12\nhttp://localhost:3000';
const OLDER = '2019-07-01\nhttp://localhost:3000';
const json = (text: string) => Buffer.from(text);

test('a row is answered in each shape it was kept in, and only at its stamp', () => {
  const rows = new RenderedRows(1024 * 1024);
  rows.set(CURRENT, 1, json('{"v":"current"}'));
  rows.set(OLDER, 1, json('{"v":"older"}'));
  assert.equal(rows.get(CURRENT, 1)?.toString(), '{"v":"current"}');
  assert.equal(rows.get(OLDER, 1)?.toString(), '{"v":"older"}');
  assert.equal(rows.get('2020-10-12\nhttps://sandbox.example.com', 1), undefined, 'another base of links');
  assert.equal(rows.get(CURRENT, 2), undefined, 'another stamp (a changed row, or another row) is not answered');
  assert.deepEqual({ hits: rows.hits, misses: rows.misses }, { hits: 2, misses: 2 });
});

test('the same shape of a stamp is replaced, not added', () => {
  const rows = new RenderedRows(1024 * 1024);
  rows.set(CURRENT, 1, json('{"old":1}'));
  const one = rows.keptBytes;
  rows.set(CURRENT, 1, json('{"new":1}'));
  assert.equal(rows.keptBytes, one);
  assert.equal(rows.get(CURRENT, 1)?.toString(), '{"new":1}');
  rows.set(OLDER, 1, json('{"old":2}'));
  assert.ok(rows.keptBytes > one, 'a second shape is counted');
  assert.equal(rows.get(CURRENT, 1)?.toString(), '{"new":1}', 'beside the first');
});

test('what is kept stays within the budget, least recently used first out; a budget of 0 keeps nothing', () => {
  const budget = 64 * 1024;
  const rows = new RenderedRows(budget);
  const body = json('x'.repeat(1000));
  for (let stamp = 0; stamp < 200; stamp++) rows.set(CURRENT, stamp, body);
  assert.ok(rows.keptBytes <= budget, `${rows.keptBytes} within ${budget}`);
  assert.ok(rows.keptBytes > budget / 2);
  assert.equal(rows.get(CURRENT, 0), undefined, 'the first went first');
  assert.ok(rows.get(CURRENT, 199));
  const none = new RenderedRows(0);
  none.set(CURRENT, 1, body);
  assert.equal(none.get(CURRENT, 1), undefined);
  assert.equal(none.keptBytes, 0);
});
