// The checks that nothing acknowledged was lost find what is missing or listed twice (the crash test and the soak
// run rely on them failing when it is).
import assert from 'node:assert/strict';
import { test } from 'vitest';
import { Acknowledged, eventsLost, paymentsLost } from '../src/acknowledged.ts';

test('acknowledged payments missing from the stored list, and ids listed twice, are named', () => {
  const told = new Acknowledged();
  for (const id of ['pay_1', 'pay_2', 'pay_3']) told.payment('acc_1', id);
  told.payment('acc_2', 'pay_4');
  assert.equal(told.paymentCount, 4);
  assert.deepEqual(paymentsLost(told.payments.get('acc_1')!, ['pay_3', 'pay_1', 'pay_9', 'pay_1']), { lost: ['pay_2'], listedTwice: ['pay_1'] });
  assert.deepEqual(paymentsLost(told.payments.get('acc_2')!, ['pay_4']), { lost: [], listedTwice: [] });
});

test('acknowledged events count as delivered by id, however often they arrived', () => {
  const told = new Acknowledged();
  for (const id of ['evt_1', 'evt_2', 'evt_3']) told.event(id);
  assert.deepEqual(eventsLost(told.events, new Set(['evt_1', 'evt_3', 'evt_8'])), ['evt_2']);
  assert.deepEqual(eventsLost(told.events, new Set(['evt_3', 'evt_2', 'evt_1'])), []);
});
