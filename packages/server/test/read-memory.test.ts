// The read cache's budget bounds all that reads keep: the transactions' rendered rows take their share out of it.
import assert from 'node:assert/strict';
import { test } from 'vitest';
import { readMemory } from '../src/app.ts';
import { DEFAULT_READ_CACHE_BYTES } from '../src/http/read-cache.ts';
import { DEFAULT_RENDERED_ROWS_BYTES } from '../src/http/rendered-rows.ts';

const MIB = 1024 * 1024;

test('the rendered rows take an eighth of the budget and the replayed responses the rest', () => {
  assert.deepEqual(readMemory({ readCache: { maxBytes: 4 * MIB } }), { readCache: { maxBytes: 3.5 * MIB }, renderedRowsBytes: 0.5 * MIB });
  const byDefault = readMemory({});
  assert.deepEqual(byDefault, { readCache: { maxBytes: DEFAULT_READ_CACHE_BYTES - 6 * MIB }, renderedRowsBytes: 6 * MIB });
});

test('with the read cache off the rows keep their own budget; a budget given for them is theirs alone', () => {
  assert.deepEqual(readMemory({ readCache: false }), { readCache: false, renderedRowsBytes: DEFAULT_RENDERED_ROWS_BYTES });
  assert.deepEqual(readMemory({ readCache: { maxBytes: 4 * MIB }, renderedRowsBytes: 0 }), { readCache: { maxBytes: 4 * MIB }, renderedRowsBytes: 0 });
});
