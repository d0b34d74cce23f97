// `startConsumerCheck` inside a test runner, as the README shows it: the typed client against the check's proxy; a
// clean use asserts clean, a request that breaks the description makes assertClean() throw with the rule; a fault
// for the whole check is judged from the wire; a receiver named by webhookUrl gets the receiver checks.
import assert from 'node:assert/strict';
import { createClient } from '@aggregation/client';
import { afterEach, test } from 'vitest';
import { startReceiver } from '../reference/receiver.js';
import { mockApi } from '../src/consumer/api.ts';
import { planOf } from '../src/consumer/faults.ts';
import { type ConsumerCheck, ConsumerContractError, startConsumerCheck } from '../src/consumer/index.ts';
import { startRecorder } from '../src/recorder.ts';

let check: ConsumerCheck | undefined;
afterEach(async () => {
  await check?.stop();
  check = undefined;
});

const payment = {
  amount: '5.00',
  memo: 'Lunch',
  payee: { scheme: 'zelle' as const, address: 'jane@example.org', name: 'Jane Doe', type: 'person' as const },
};

test('the typed client keeps the contract; a request that breaks it fails assertClean() naming the rule', async () => {
  check = await startConsumerCheck();
  const client = createClient({ token: check.token, baseUrl: check.baseUrl, version: '2020-10-12' });
  const [checking] = (await client.accounts.list()).filter((a) => a.links.payments);
  assert.ok(checking);
  const paid = await client.payments.create(checking.id, payment);
  assert.equal(paid.kind, 'payment');
  await check.assertClean();
  const report = await check.report();
  assert.deepEqual(report.usage[0]?.operations.map((o) => o.operationId).sort(), ['createPayment', 'listAccounts']);

  await fetch(`${check.baseUrl}/accounts/${checking.id}/payments`, {
    method: 'POST',
    headers: { authorization: `Basic ${btoa(`${check.token}:`)}`, 'content-type': 'application/json' },
    body: JSON.stringify(payment),
  }).then((r) => r.body?.cancel());
  await assert.rejects(check.assertClean(), (error: ConsumerContractError) => {
    assert.ok(error instanceof ConsumerContractError);
    assert.match(error.message, /^consumer contract tests failed: requests 2020-10-12: POST \/accounts\/\{account_id\}\/payments/);
    assert.match(error.message, /Rule: Idempotency-Key on every payment/);
    return true;
  });
});

test('a fault for the whole check: the client, which keeps its key across retries, makes one payment after a lost answer', async () => {
  check = await startConsumerCheck({ fault: 'lost-answer' });
  const client = createClient({ token: check.token, baseUrl: check.baseUrl, version: '2020-10-12' });
  const [checking] = (await client.accounts.list()).filter((a) => a.links.payments);
  const paid = await client.payments.create(checking!.id, payment);
  assert.equal(paid.kind, 'payment');
  const report = await check.report();
  assert.equal(report.exitCode, 0, report.verdict);
  const faults = report.testsuites.find((s) => s.suite === 'faults');
  assert.match(faults!.notes.join('\n'), /the API holds 1 payments of 5\.00 to jane@example\.org made in this round/);
});

test('webhookUrl: the receiver the tests serve gets the receiver checks, signed with the secret handed to it', async () => {
  // The receiver listens first, on a free port; it learns the check's secret once the check has started.
  const secrets: string[] = [];
  const receiver = await startReceiver({ secrets });
  try {
    check = await startConsumerCheck({ webhookUrl: receiver.url });
    secrets.push(check.webhookSecret);
    const report = await check.report();
    const receiverSuite = report.testsuites.find((s) => s.suite === 'receiver');
    assert.equal(receiverSuite?.testcases.length, 24);
    assert.equal(report.exitCode, 0, report.verdict);
  } finally {
    await receiver.close();
  }
});

test('without @aggregation/server the API is the Prism mock: payments are answered as made (202), so an answer can be lost', async () => {
  const api = await mockApi('2020-10-12');
  const plan = planOf('lost-answer', { version: '2020-10-12', seed: 1, disconnectedForReal: false, mfaForReal: false });
  const recorder = await startRecorder(api.baseUrl, {
    intercept: (e) => plan.intercept(e),
    ...(api.upstreamHeaders ? { upstreamHeaders: api.upstreamHeaders } : {}),
  });
  try {
    const { token } = await api.session();
    const client = createClient({ token, baseUrl: recorder.url, version: '2020-10-12' });
    const [account] = (await client.accounts.list()).filter((a) => a.links.payments);
    const paid = await client.payments.create(account!.id, payment);
    assert.equal(paid.kind, 'payment');
    const verdict = plan.judge(recorder.exchanges, { paymentsBefore: undefined, paymentsAfter: undefined, exitCode: 0 });
    assert.deepEqual(verdict.defects, []);
    assert.match(verdict.notes[0]!, /was lost; the command sent the payment again 1 times, 1 with the same Idempotency-Key/);
  } finally {
    await recorder.close();
    await api.close();
  }
});
