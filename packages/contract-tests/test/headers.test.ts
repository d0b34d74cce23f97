// The header checks judge the exchanges of a run: each header whose description names a situation appears in it and
// only in it. Judged here on exchanges written for the purpose, one situation at a time.
import assert from 'node:assert/strict';
import { describe, it } from 'vitest';
import type { Check } from '../src/behaviour/checks.ts';
import { checkHeaders } from '../src/behaviour/headers.ts';
import type { Exchange } from '../src/recorder.ts';
import { Collector } from '../src/report/collect.ts';

let ids = 0;
function exchange(method: string, path: string, status: number, more: Partial<Exchange> = {}): Exchange {
  const id = `req_test${ids++}`;
  return {
    method,
    path,
    url: `http://127.0.0.1:1${path}`,
    requestBody: '',
    status,
    receivedAt: ids,
    connection: ids,
    ...more,
    requestHeaders: { authorization: 'Basic dGVzdF90b2tlbl9hOg==', 'service-version': '2020-10-12', ...more.requestHeaders },
    responseHeaders: { 'request-id': id, 'service-version': '2020-10-12', ...more.responseHeaders },
    ...(status >= 400 && more.answerBody === undefined
      ? { answerBody: JSON.stringify({ error: { code: 'not_found', message: 'x', request_id: id } }) }
      : {}),
  };
}

/** The status of each testcase of a check, after judging the exchanges. */
function judged(exchanges: Exchange[], check: Check): string[] {
  const collector = new Collector('behaviour');
  checkHeaders(exchanges, collector, undefined);
  return collector
    .testsuites()
    .flatMap((s) => s.testcases)
    .filter((t) => t.check === check)
    .map((t) => `${t.operation} ${t.status}`);
}

const payeeBody = { scheme: 'zelle', address: 'jane.doe@example.com', name: 'Jane Doe', type: 'person' };
const keyed = (body: string, contentType: string, replayed?: boolean) =>
  exchange('POST', '/accounts/acc_1/payees', 200, {
    requestHeaders: { 'idempotency-key': 'k1', 'content-type': contentType },
    requestBody: body,
    responseHeaders: replayed ? { 'idempotent-replayed': 'true' } : {},
  });

describe('the header checks', () => {
  it('Retry-After: required on a 429, refused on a 200', () => {
    const check = 'headers: Retry-After on 429, 503 and 504 and only there';
    assert.deepEqual(judged([exchange('GET', '/accounts', 429, { responseHeaders: { 'retry-after': '1' } })], check), ['GET /accounts passed']);
    assert.deepEqual(judged([exchange('GET', '/accounts', 429)], check), ['GET /accounts failed']);
    assert.deepEqual(judged([exchange('GET', '/accounts', 200, { responseHeaders: { 'retry-after': '1' } })], check), ['GET /accounts failed']);
  });

  it("Service-Enrollment-Status: on an account's own reads, naming a disconnected enrollment's reason; not on the list", () => {
    const only = "headers: Service-Enrollment-Status only on an account's own reads";
    const names = "headers: Service-Enrollment-Status names the enrollment's status";
    const status = (value: string) => ({ responseHeaders: { 'service-enrollment-status': value } });
    assert.deepEqual(judged([exchange('GET', '/accounts', 200, status('healthy'))], only), ['GET /accounts failed']);
    assert.deepEqual(judged([exchange('GET', '/accounts/acc_1', 200, status('healthy'))], names), ['GET /accounts/{account_id} passed']);
    assert.deepEqual(judged([exchange('GET', '/accounts/acc_1', 200)], names), ['GET /accounts/{account_id} failed']);
    const disconnected = (value: string) =>
      exchange('GET', '/accounts/acc_1/balances', 404, {
        ...status(value),
        answerBody: JSON.stringify({ error: { code: 'enrollment.disconnected.locked', message: 'x' } }),
      });
    assert.deepEqual(judged([disconnected('disconnected.locked')], names), ['GET /accounts/{account_id}/balances passed']);
    assert.deepEqual(judged([disconnected('healthy')], names), ['GET /accounts/{account_id}/balances failed']);
  });

  it('Idempotent-Replayed: only on a repeat of a request that succeeded, in JSON or form-encoded alike', () => {
    const check = 'headers: Idempotent-Replayed: true on a replay and never otherwise';
    const json = JSON.stringify(payeeBody);
    const form = new URLSearchParams(payeeBody).toString();
    const op = 'POST /accounts/{account_id}/payees';
    assert.deepEqual(judged([keyed(json, 'application/json'), keyed(form, 'application/x-www-form-urlencoded', true)], check), [`${op} passed`]);
    assert.deepEqual(judged([keyed(json, 'application/json', true)], check), [`${op} failed`]);
    const other = JSON.stringify({ ...payeeBody, name: 'Someone Else' });
    assert.deepEqual(judged([keyed(json, 'application/json'), keyed(other, 'application/json', true)], check), [`${op} failed`]);
  });

  it('Request-Id: once per answer, and the one an error body repeats', () => {
    const check = 'headers: Request-Id on every answer, unique, repeated in error bodies';
    const first = exchange('GET', '/accounts', 200);
    assert.deepEqual(judged([first, exchange('GET', '/accounts', 200)], check), ['GET /accounts passed']);
    assert.deepEqual(judged([first, { ...exchange('GET', '/accounts', 200), responseHeaders: first.responseHeaders }], check), [
      'GET /accounts failed',
    ]);
    const unlike = exchange('GET', '/accounts/acc_1', 404, {
      answerBody: JSON.stringify({ error: { code: 'not_found', message: 'x', request_id: 'req_other' } }),
    });
    assert.deepEqual(judged([unlike], check), ['GET /accounts/{account_id} failed']);
  });
});
