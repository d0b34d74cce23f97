// Memory for response bodies taken again once given back: never two holders of one block, and bounded.
import assert from 'node:assert/strict';
import { test } from 'vitest';
import { ReusedBuffers } from '../src/http/reused-buffers.ts';

const options = { maxKept: 2, maxBlockBytes: 256 * 1024 };

test('bytes are as long as asked for, and two taken at once never share memory', () => {
  const buffers = new ReusedBuffers(options);
  const first = buffers.take(50_000);
  const second = buffers.take(50_000);
  assert.equal(first.byteLength, 50_000);
  assert.notEqual(first.buffer, second.buffer);
  first.fill(1);
  second.fill(2);
  assert.ok(
    first.every((byte) => byte === 1),
    'writing one leaves the other as it was',
  );
});

test('memory given back is taken again by bytes that fit in it, and only once', () => {
  const buffers = new ReusedBuffers(options);
  const first = buffers.take(50_000);
  buffers.give(first);
  assert.equal(buffers.kept, 1);
  const again = buffers.take(40_000);
  assert.equal(again.buffer, first.buffer, 'a smaller body takes the freed block');
  assert.equal(again.byteLength, 40_000);
  assert.equal(buffers.kept, 0);
  assert.notEqual(buffers.take(40_000).buffer, first.buffer, 'a block taken is not handed out twice');

  buffers.give(again);
  const larger = buffers.take(100_000);
  assert.notEqual(larger.buffer, first.buffer, 'a body larger than the freed block gets its own');
  assert.equal(buffers.kept, 1, 'and the freed block stays free');
});

test('giving back the same bytes twice frees the block once', () => {
  const buffers = new ReusedBuffers(options);
  const bytes = buffers.take(1_000);
  buffers.give(bytes);
  buffers.give(bytes);
  assert.equal(buffers.kept, 1);
  assert.equal(buffers.take(1_000).buffer, bytes.buffer);
  assert.notEqual(buffers.take(1_000).buffer, bytes.buffer);
});

test('what is kept free is bounded in blocks and in the size of each', () => {
  const buffers = new ReusedBuffers(options);
  const taken = [buffers.take(1_000), buffers.take(1_000), buffers.take(1_000)];
  for (const bytes of taken) buffers.give(bytes);
  assert.equal(buffers.kept, options.maxKept);
  const large = buffers.take(options.maxBlockBytes + 1);
  buffers.take(1_000);
  buffers.give(large);
  assert.equal(buffers.kept, options.maxKept - 1, 'a block over the size bound is left to the collector');
});
