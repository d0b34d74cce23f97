// The delivery worker on its own, with nothing else in this file to wake the event loop: a wake that waits
// for other I/O or a timer stalls the deliveries until the hour-long poll, so the hang guard fails the test
// (they take milliseconds otherwise, however loaded the machine).
import assert from 'node:assert/strict';
import { test } from 'vitest';
import { openStore } from '../src/index.ts';
import { DEFAULT_APPLICATION_ID } from '../src/storage/store.ts';
import { insertPending, testWorker } from './helpers/outbox.ts';

test('a worker goes from one delivery to the next by itself, with no other timer or I/O to wake it', async () => {
  // Outcomes commit in a later turn of the event loop (group commit): the wake that follows must still run.
  const store = openStore({ path: ':memory:' });
  await store.transaction((tx) => insertPending(tx, ['dlv_1', 'dlv_2', 'dlv_3'], 1000));
  let attempts = 0;
  let resolve = () => {};
  const third = new Promise<void>((settle) => {
    resolve = settle;
  });
  const worker = testWorker({
    // One at a time, and a poll far away (its timer does not keep the process alive).
    store,
    pollMs: 3_600_000,
    concurrency: 1,
    fetch: async () => {
      if (++attempts === 3) resolve();
      return new Response(null, { status: 204 });
    },
  });
  worker.start();
  await third;
  await worker.stop();
  assert.deepEqual(
    (await store.outbox.listDeliveries(DEFAULT_APPLICATION_ID, 10)).map((d) => d.status),
    ['delivered', 'delivered', 'delivered'],
  );
  await store.close();
});
