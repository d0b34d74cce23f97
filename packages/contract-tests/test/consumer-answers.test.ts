// Every answer a fault round sends in place of the API's is one the description documents for the operation, checked
// here against the description by the shared validator (not by the code that built it), for every operation each
// round may fault; and every event the receiver checks send validates against its event schema.
import assert from 'node:assert/strict';
import { ContractValidator, loadBundle, operationsOf } from '@aggregation/openapi/contract';
import { VERSIONS } from '@aggregation/openapi/versions';
import { test } from 'vitest';
import { planOf } from '../src/consumer/faults.ts';
import { documentedEvents, eventProblems } from '../src/consumer/receiver.ts';
import type { Exchange } from '../src/recorder.ts';
import { FAULT_ROUNDS } from '../src/report/types.ts';

const concrete = (path: string) => path.replace(/\{account_id\}/g, 'acc_1').replace(/\{[^}]+\}/g, 'id_1');

function exchange(method: string, path: string, version: string, receivedAt: number): Exchange {
  return {
    method,
    path,
    url: `http://127.0.0.1:1${path}`,
    requestHeaders: { 'service-version': version, 'idempotency-key': 'k1', 'content-type': 'application/json' },
    requestBody: method === 'POST' ? '{"amount":"1.00"}' : '',
    status: 0,
    responseHeaders: {},
    receivedAt,
    connection: 1,
  };
}

for (const version of VERSIONS) {
  test(`${version}: every injected answer of every round validates against the description`, () => {
    const validator = ContractValidator.forDocument(version);
    const operations = operationsOf(loadBundle(version));
    let injected = 0;
    const rounds = new Set<string>();
    for (const round of FAULT_ROUNDS) {
      for (const operation of operations) {
        // A fresh plan per operation: each round faults an operation's first request.
        const plan = planOf(round, { version, seed: 7, disconnectedForReal: false, mfaForReal: false });
        const request = exchange(operation.method.toUpperCase(), concrete(operation.path), version, 1);
        const interception = plan.intercept(request);
        if (!interception || !('answer' in interception)) continue;
        const { status, headers, body } = interception.answer;
        const problems = validator.validateResponse({ method: request.method, path: request.path, status, headers, body: JSON.parse(body) });
        assert.deepEqual(problems, [], `${round} ${operation.operationId} ${status}`);
        injected++;
        rounds.add(round);
      }
    }
    // lost-answer forwards the request and loses the real answer; every other round answers in place.
    assert.deepEqual([...rounds].sort(), FAULT_ROUNDS.filter((r) => r !== 'lost-answer').sort());
    assert.ok(injected > 30, `${injected} answers checked`);
  });

  test(`${version}: the receiver checks send one documented, valid event of every type`, () => {
    const events = documentedEvents(version);
    assert.deepEqual(events.map((e) => e.type).sort(), Object.keys(loadBundle(version).webhooks ?? {}).sort());
    for (const { type, body } of events) assert.deepEqual(eventProblems(version, type, body), [], type);
  });
}

test('the rate-limit answer says Retry-After: 2 and the code rate_limited; the server-error status is one the operation documents, by the seed', () => {
  const plan = planOf('rate-limit', { version: '2020-10-12', seed: 1, disconnectedForReal: false, mfaForReal: false });
  const answer = plan.intercept(exchange('GET', '/accounts', '2020-10-12', 1));
  assert.ok(answer && 'answer' in answer);
  assert.equal(answer.answer.status, 429);
  assert.equal(answer.answer.headers['Retry-After'], '2');
  assert.equal(JSON.parse(answer.answer.body).error.code, 'rate_limited');
  const statuses = (seed: number) =>
    ['listTransactions', 'getAccount'].map((id) => {
      const p = planOf('server-error', { version: '2020-10-12', seed, disconnectedForReal: false, mfaForReal: false });
      const path = id === 'listTransactions' ? '/accounts/acc_1/transactions' : '/accounts/acc_1';
      const got = p.intercept(exchange('GET', path, '2020-10-12', 1));
      return got && 'answer' in got ? got.answer.status : 0;
    });
  assert.deepEqual(statuses(5), statuses(5));
  for (const status of statuses(5)) assert.ok([502, 503, 504].includes(status));
});
