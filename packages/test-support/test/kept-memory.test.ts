// What the memory tests and benchmarks read of a server: buffers freed by the collection are no longer counted as kept.
import assert from 'node:assert/strict';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { test } from 'vitest';
import { memoryAfterCollection } from '../src/kept-memory.ts';

setFlagsFromString('--expose-gc');
const collect = runInNewContext('gc') as () => void;

const BUFFERS = 1_000;
const BUFFER_BYTES = 64 * 1024;

test('ArrayBuffers that died before the collection are not counted in external memory after it', () => {
  const before = memoryAfterCollection(collect).external;
  let buffers: Buffer[] | undefined = Array.from({ length: BUFFERS }, () => Buffer.allocUnsafeSlow(BUFFER_BYTES));
  const allocated = BUFFERS * BUFFER_BYTES;
  assert.ok(process.memoryUsage().external - before >= allocated, 'the buffers are counted while they live');
  assert.equal(buffers.length, BUFFERS);
  buffers = undefined;
  const after = memoryAfterCollection(collect).external;
  assert.ok(after - before < allocated / 16, `${after - before} bytes of ${allocated} freed still counted`);
});
