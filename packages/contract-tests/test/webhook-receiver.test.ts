// The webhook wait: it ends as soon as every fired event arrived, and answers how many did when the time is up.
import assert from 'node:assert/strict';
import { afterAll, beforeAll, test } from 'vitest';
import { startWebhookReceiver, type WebhookReceiver, waitForDeliveries } from '../src/webhook-receiver.ts';

let receiver: WebhookReceiver;
beforeAll(async () => {
  receiver = await startWebhookReceiver();
});
afterAll(() => receiver.close());

const deliver = (body: string) => fetch(receiver.url, { method: 'POST', body }).then((response) => assert.equal(response.status, 204));

test('events that arrive after the wait began are counted, and the wait ends with the last of them', async () => {
  const waiting = waitForDeliveries(receiver, 2, 3_600_000);
  await deliver('{"type":"a"}');
  await deliver('{"type":"b"}');
  // An hour-long wait that returns here ended on the second delivery, not on its limit.
  assert.equal(await waiting, 2);
  assert.deepEqual(
    receiver.deliveries.map((delivery) => delivery.body),
    ['{"type":"a"}', '{"type":"b"}'],
  );
});

test('when fewer arrive than were fired, the wait ends at its limit with how many did', async () => {
  assert.equal(await waitForDeliveries(receiver, 5, 300), 2);
});
