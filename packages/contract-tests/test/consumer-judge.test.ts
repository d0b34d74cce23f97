// The consumer mode's judgement from the wire, on recorded exchanges: each request rule, and each fault round's rule
// for what the command does next (a retry before Retry-After, another key after a 5xx, two payments after a lost
// answer, calls to a closed account), each both ways.
import assert from 'node:assert/strict';
import { test } from 'vitest';
import { planOf, RATE_LIMIT_RETRY_AFTER } from '../src/consumer/faults.ts';
import { judgeRequest, REQUEST_RULES } from '../src/consumer/requests.ts';
import type { Exchange } from '../src/recorder.ts';

const auth = { authorization: `Basic ${btoa('test_token_abc:')}` };
const payment = { amount: '12.50', memo: 'Dinner', payee: { scheme: 'zelle', address: 'jane@example.org', name: 'Jane Doe', type: 'person' } };
let clock = 1_000;
const nextTick = () => {
  clock += 10;
  return clock;
};

function sent(method: string, target: string, options: { headers?: Record<string, string>; body?: string; at?: number } = {}): Exchange {
  const url = new URL(target, 'http://127.0.0.1:1');
  return {
    method,
    path: url.pathname,
    url: url.href,
    requestHeaders: { ...auth, ...(options.body ? { 'content-type': 'application/json' } : {}), ...options.headers },
    requestBody: options.body ?? '',
    status: 0,
    responseHeaders: {},
    receivedAt: options.at ?? nextTick(),
    connection: 1,
  };
}

const pay = (key: string | undefined, body: unknown = payment, at?: number) =>
  sent('POST', '/accounts/acc_1/payments', {
    body: JSON.stringify(body),
    headers: key ? { 'idempotency-key': key } : {},
    ...(at !== undefined ? { at } : {}),
  });

const rules = (e: Exchange) => judgeRequest(e).problems.map((p) => p.rule);

test('requests: a documented request passes; each broken rule is named', () => {
  assert.deepEqual(rules(sent('GET', '/accounts')), []);
  assert.deepEqual(rules(pay('k1')), []);
  assert.deepEqual(rules(sent('GET', '/accounts/acc_1/transactions?count=5&start_date=2024-01-01')), []);
  assert.deepEqual(rules(pay('k1', { ...payment, amount: 12.5 })), [REQUEST_RULES.body]);
  assert.deepEqual(rules(pay(undefined)), [REQUEST_RULES.idempotencyKey]);
  assert.deepEqual(rules(sent('GET', '/accounts', { headers: { 'service-version': '2021-01-01' } })), [REQUEST_RULES.version]);
  assert.deepEqual(rules(sent('GET', '/accounts/acc_1/statements')), [REQUEST_RULES.operation]);
  assert.deepEqual(rules(sent('PATCH', '/accounts')), [REQUEST_RULES.operation]);
  assert.deepEqual(rules(sent('GET', '/accounts/acc_1/transactions?count=0')), [REQUEST_RULES.parameters]);
  assert.deepEqual(rules(sent('GET', '/accounts/acc_1/transactions?cout=5')), [REQUEST_RULES.parameters]);
  assert.deepEqual(rules(sent('GET', '/accounts', { headers: { authorization: '' } })), [REQUEST_RULES.authentication]);
  assert.deepEqual(rules(sent('GET', '/accounts', { headers: { authorization: 'Bearer x' } })), [REQUEST_RULES.authentication]);
  // The entrypoint needs no token.
  assert.deepEqual(rules(sent('GET', '/', { headers: { authorization: '' } })), []);
});

test('requests: a body that is not JSON is one line that says so', () => {
  const [problem] = judgeRequest(sent('POST', '/accounts/acc_1/payments', { body: 'amount=12.50', headers: { 'idempotency-key': 'k' } })).problems;
  assert.equal(problem?.rule, REQUEST_RULES.body);
  assert.match(problem!.message, /^the body is not JSON: "amount=12\.50"$/);
});

const v = { version: '2020-10-12' as const, seed: 1, disconnectedForReal: false, mfaForReal: false };
const facts = { paymentsBefore: undefined, paymentsAfter: undefined, exitCode: 0 };

/** Sends each exchange through the plan as the proxy does; answered when `answeredAt` is given. */
function through(plan: ReturnType<typeof planOf>, exchanges: Exchange[], status = 200): Exchange[] {
  for (const e of exchanges) {
    const got = plan.intercept(e);
    if (got && 'answer' in got) {
      e.injected = got.by;
      e.status = got.answer.status;
    } else if (got && 'loseAnswer' in got && got.loseAnswer(202)) {
      e.lost = true;
      e.injected = got.by;
      e.status = 202;
      e.lostBody = '{"id":"pay_1"}';
    } else e.status = e.method === 'POST' ? 202 : status;
    e.answeredAt = e.receivedAt + 1;
  }
  return exchanges;
}

test('rate-limit: a request sent again sooner than Retry-After is a defect; after waiting it is not', () => {
  const wait = RATE_LIMIT_RETRY_AFTER * 1000;
  const plan = planOf('rate-limit', v);
  assert.deepEqual(
    plan.judge(through(plan, [sent('GET', '/accounts', { at: 0 }), sent('GET', '/accounts', { at: 300 })]), facts).defects.map((d) => d.kind),
    ['retried before Retry-After'],
  );
  const patient = planOf('rate-limit', v);
  assert.deepEqual(
    patient.judge(through(patient, [sent('GET', '/accounts', { at: 0 }), sent('GET', '/accounts', { at: wait + 5 })]), facts).defects,
    [],
  );
});

test('server-error: a payment retried with another key or another body is a defect; so are more than 5 retries at once', () => {
  const judged = (exchanges: Exchange[]) => {
    const plan = planOf('server-error', v);
    return plan.judge(through(plan, exchanges), facts).defects.map((d) => d.kind);
  };
  assert.deepEqual(judged([pay('k1', payment, 0), pay('k1', payment, 1000)]), []);
  assert.deepEqual(judged([pay('k1', payment, 0), pay('k2', payment, 1000)]), ['payment retried with another Idempotency-Key']);
  assert.deepEqual(judged([pay('k1', payment, 0), pay('k1', { ...payment, memo: 'other' }, 1000)]), ['payment retried with another body']);
  const storm = Array.from({ length: 8 }, (_, i) => sent('GET', '/accounts', { at: i * 5 }));
  assert.deepEqual(judged(storm), ['retried without waiting']);
  assert.deepEqual(judged(Array.from({ length: 3 }, (_, i) => sent('GET', '/accounts', { at: i * 5 }))), []);
});

test('lost-answer: two payments of the intended one in the API is a double payment; the same key again is not', () => {
  const held = (id: string) => ({ id, accountId: 'acc_1', amount: '12.50', memo: 'Dinner', payee: 'jane@example.org' });
  const judged = (exchanges: Exchange[], after: string[]) => {
    const plan = planOf('lost-answer', v);
    return plan.judge(through(plan, exchanges), { paymentsBefore: [], paymentsAfter: after.map(held), exitCode: 0 }).defects;
  };
  assert.deepEqual(judged([pay('k1', payment, 0), pay('k1', payment, 500)], ['pay_1']), []);
  const [double] = judged([pay('k1', payment, 0), pay('k2', payment, 500)], ['pay_1', 'pay_2']);
  assert.equal(double?.severity, 'double-payment');
  assert.match(double!.message, /^2 payments created for one intended payment \(pay_1, pay_2\)/);
  // Against the mock nothing is counted: the retry's new key alone tells it.
  const plan = planOf('lost-answer', v);
  const wire = plan.judge(through(plan, [pay('k1', payment, 0), pay('k2', payment, 500)]), facts).defects;
  assert.equal(wire[0]?.severity, 'double-payment');
});

test('gone: any request for the closed account after its 410 is a defect; other accounts are not', () => {
  const judged = (exchanges: Exchange[]) => {
    const plan = planOf('gone', v);
    return plan.judge(through(plan, exchanges), facts).defects.map((d) => d.kind);
  };
  assert.deepEqual(judged([sent('GET', '/accounts/acc_1', { at: 0 }), sent('GET', '/accounts/acc_2', { at: 10 })]), []);
  assert.deepEqual(judged([sent('GET', '/accounts/acc_1', { at: 0 }), sent('GET', '/accounts/acc_1/balances', { at: 10 })]), [
    'called a closed account',
  ]);
});

test('mfa: the challenges are injected, or real in the sandbox; the note tells which were approved and completed', () => {
  const injected = planOf('mfa', v);
  const [challenged] = through(injected, [pay('k1')]);
  assert.equal(challenged!.injected, 'mfa');
  assert.equal(challenged!.status, 200);
  assert.match(injected.judge([challenged!], facts).notes[0]!, /^1 challenges answered .*approved 0 through the sandbox, completed 0/);

  const real = planOf('mfa', { ...v, mfaForReal: true });
  const first = pay('k1');
  assert.equal(real.intercept(first), undefined);
  const answered = (e: Exchange, status: number, body: unknown) =>
    Object.assign(e, { status, answeredAt: e.receivedAt + 1, answerBody: JSON.stringify(body) });
  const challenge = (token: string) => ({ connect_token: token });
  const payee = { scheme: 'zelle', address: 'jane@example.org', name: 'Jane Doe', type: 'person' };
  const exchanges = [
    answered(first, 200, challenge('ct_1')),
    answered(sent('POST', '/sandbox/connect_tokens/ct_1/approve'), 200, { status: 'approved' }),
    answered(pay('k1'), 202, { id: 'pay_1' }),
    answered(pay('k2', { ...payment, memo: 'Lunch' }), 200, challenge('ct_2')),
    // A payee is created with 200 too: not a challenge.
    answered(sent('POST', '/accounts/acc_1/payees', { body: JSON.stringify(payee), headers: { 'idempotency-key': 'k3' } }), 200, {
      id: 'pye_1',
      ...payee,
    }),
  ];
  const [note] = real.judge(exchanges, facts).notes;
  assert.match(
    note!,
    /^2 challenges answered \(POST \/accounts\/acc_1\/payments\); the command sent 0 of them again unchanged, used 2 Idempotency-Key/,
  );
  assert.match(note!, /approved 1 through the sandbox, completed 1 /);
});
