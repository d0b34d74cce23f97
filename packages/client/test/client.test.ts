import assert from 'node:assert/strict';
import { describe, it } from 'vitest';
import {
  AggregationError,
  ApiError,
  AuthenticationError,
  apiErrorClassFor,
  BadGatewayError,
  BadRequestError,
  ConfigurationError,
  createClient,
  disconnectReason,
  type EnrollmentStatus,
  GatewayTimeoutError,
  GoneError,
  getResponseInfo,
  InternalServerError,
  isAccountClosed,
  isEnrollmentDisconnected,
  isValidationError,
  isVerificationExpired,
  isVerificationPending,
  NotFoundError,
  PaymentsNotSupportedError,
  PermissionDeniedError,
  RateLimitError,
  ServiceUnavailableError,
  UnprocessableEntityError,
} from '../src/index.ts';
import { apiError, fakeFetch, json } from './helpers/fake-fetch.ts';

const baseUrl = 'https://api.test';
const token = 'test_token_abc';

const links = (id: string, payments: boolean) => ({
  self: `${baseUrl}/accounts/${id}`,
  details: `${baseUrl}/accounts/${id}/details`,
  balances: `${baseUrl}/accounts/${id}/balances`,
  transactions: `${baseUrl}/accounts/${id}/transactions`,
  ...(payments ? { payments: `${baseUrl}/accounts/${id}/payments` } : {}),
});
const checking = {
  id: 'acc_chk',
  enrollment_id: 'enr_1',
  currency: 'USD',
  institution: { id: 'chase', name: 'Chase' },
  last_four: '1234',
  name: 'Checking',
  type: 'depository',
  subtype: 'checking',
  status: 'open',
  links: links('acc_chk', true),
} as const;
const card = { ...checking, id: 'acc_card', type: 'credit', subtype: 'credit_card', links: links('acc_card', false) } as const;
const paymentBody = { amount: '25.00', memo: 'Dinner', payee: { scheme: 'zelle', address: 'bob@example.com' } } as const;
const payment = {
  id: 'pay_1',
  amount: '25.00',
  memo: 'Dinner',
  reference: 'REF1',
  date: '2024-05-01',
  payee: { scheme: 'zelle', type: 'person', name: 'Bob', address: 'bob@example.com' },
  links: { self: `${baseUrl}/accounts/acc_chk/payments/pay_1`, account: `${baseUrl}/accounts/acc_chk` },
} as const;

describe('createClient', () => {
  it('sends Basic auth built from the token with an empty password', async () => {
    const { fetch, calls } = fakeFetch(() => json([]));
    await createClient({ token, baseUrl, fetch }).accounts.list();
    assert.equal(calls[0]?.headers.get('Authorization'), `Basic ${btoa(`${token}:`)}`);
    assert.equal(calls[0]?.url.href, `${baseUrl}/accounts`);
    assert.equal(calls[0]?.url.username, '');
  });

  it("the token's Authorization wins over headers given in options or per call, and middleware sees it", async () => {
    const { fetch, calls } = fakeFetch(() => json([]));
    const client = createClient({ token, baseUrl, fetch, headers: { Authorization: 'Bearer options' } });
    const seen: (string | null)[] = [];
    client.raw.use({ onRequest: ({ request }) => void seen.push(request.headers.get('Authorization')) });
    await client.accounts.list({ headers: { authorization: 'Bearer call' } });
    await client.raw.GET('/accounts', { headers: { Authorization: 'Bearer raw' } });
    const expected = `Basic ${btoa(`${token}:`)}`;
    assert.deepEqual(
      calls.map((c) => c.headers.get('Authorization')),
      [expected, expected],
    );
    assert.deepEqual(seen, [expected, expected]);
  });

  it('sends Service-Version only when a version is chosen', async () => {
    const { fetch, calls } = fakeFetch(() => json([]));
    await createClient({ token, baseUrl, fetch }).accounts.list();
    await createClient({ token, baseUrl, fetch, version: '2019-07-01' }).accounts.list();
    await createClient({ token, baseUrl, fetch, version: '2020-10-12' }).accounts.list();
    assert.deepEqual(
      calls.map((c) => c.headers.get('Service-Version')),
      [null, '2019-07-01', '2020-10-12'],
    );
  });

  it('refuses an unknown version', () => {
    assert.throws(() => createClient({ token, baseUrl, version: '2018-01-01' as '2019-07-01' }), ConfigurationError);
  });

  it('refuses a live token without mutual TLS, before any request', () => {
    const { fetch, calls } = fakeFetch(() => json([]));
    assert.throws(
      () => createClient({ token: 'token_live123', baseUrl, fetch }),
      (error: Error) => {
        assert.ok(error instanceof ConfigurationError);
        assert.match(error.message, /client certificate/);
        return true;
      },
    );
    assert.equal(calls.length, 0);
    // A fetch that presents a certificate (a runtime's mTLS binding) may declare it.
    createClient({ token: 'token_live123', baseUrl, fetch, mutualTls: true });
  });

  it('refuses an empty token', () => {
    assert.throws(() => createClient({ token: '', baseUrl }), ConfigurationError);
  });

  it('exposes the raw openapi-fetch client with the same middleware', async () => {
    const { fetch, calls } = fakeFetch(() => json(checking, 200, { 'Service-Enrollment-Status': 'healthy' }));
    const client = createClient({ token, baseUrl, fetch, version: '2020-10-12' });
    const { data, response } = await client.raw.GET('/accounts/{account_id}', { params: { path: { account_id: 'acc_chk' } } });
    assert.equal(response.status, 200);
    assert.equal(data?.institution.name, 'Chase');
    assert.ok(calls[0]?.headers.get('Authorization')?.startsWith('Basic '));
    assert.equal(calls[0]?.headers.get('Service-Version'), '2020-10-12');
    assert.equal(client.enrollmentStatus?.status, 'healthy');
  });

  it('encodes path parameters', async () => {
    const { fetch, calls } = fakeFetch(() => json(checking));
    await createClient({ token, baseUrl, fetch }).accounts.get('acc/../x y');
    assert.equal(calls[0]?.url.pathname, '/accounts/acc%2F..%2Fx%20y');
  });
});

describe('enrollment status', () => {
  it('is read on every response, exposed per result and on the client', async () => {
    const seen: EnrollmentStatus[] = [];
    const { fetch } = fakeFetch((request) =>
      request.url.pathname.endsWith('/balances')
        ? json({ account_id: 'acc_chk', ledger: '1.00', available: '1.00', links: {} }, 200, {
            'Service-Enrollment-Status': 'disconnected.password_changed',
          })
        : json(checking, 200, { 'Service-Enrollment-Status': 'healthy' }),
    );
    const client = createClient({ token, baseUrl, fetch, onEnrollmentStatus: (status) => seen.push(status) });
    const account = await client.accounts.get('acc_chk');
    assert.deepEqual(getResponseInfo(account)?.enrollmentStatus, { status: 'healthy', reason: undefined, raw: 'healthy' });
    assert.equal(client.enrollmentStatus?.status, 'healthy');
    const balances = await client.accounts.balances('acc_chk');
    assert.deepEqual(getResponseInfo(balances)?.enrollmentStatus, {
      status: 'disconnected',
      reason: 'password_changed',
      raw: 'disconnected.password_changed',
    });
    assert.equal(client.enrollmentStatus?.reason, 'password_changed');
    assert.deepEqual(
      seen.map((s) => s.raw),
      ['healthy', 'disconnected.password_changed'],
    );
  });

  it('is read once per call, from the response left after retries', async () => {
    const seen: string[] = [];
    const { fetch } = fakeFetch((_, i) =>
      i === 0
        ? apiError(503, 'unavailable', 'later', { 'Service-Enrollment-Status': 'disconnected', 'Retry-After': '0' })
        : json([], 200, { 'Service-Enrollment-Status': 'healthy' }),
    );
    const client = createClient({ token, baseUrl, fetch, onEnrollmentStatus: (status) => seen.push(status.raw) });
    await client.accounts.list();
    assert.deepEqual(seen, ['healthy']);
  });

  it('the response info stays out of the data', async () => {
    const { fetch } = fakeFetch(() => json(checking, 200, { 'Service-Enrollment-Status': 'healthy', 'Service-Version': '2020-10-12' }));
    const account = await createClient({ token, baseUrl, fetch }).accounts.get('acc_chk');
    assert.deepEqual(account, checking);
    assert.deepEqual(Object.keys(account), Object.keys(checking));
    assert.equal(JSON.stringify(account), JSON.stringify(checking));
    assert.deepEqual({ ...account }, checking);
    Object.freeze(account);
    const info = getResponseInfo(account);
    assert.equal(info?.status, 200);
    assert.equal(info?.version, '2020-10-12');
    assert.equal(getResponseInfo(account), info);
    assert.equal(getResponseInfo({ ...account }), undefined);
  });

  it('is carried by errors', async () => {
    const { fetch } = fakeFetch(() =>
      apiError(404, 'enrollment.disconnected.mfa_required', 'Reconnect', { 'Service-Enrollment-Status': 'disconnected.mfa_required' }),
    );
    const client = createClient({ token, baseUrl, fetch });
    await assert.rejects(client.transactions.list('acc_chk'), (error: ApiError) => {
      assert.ok(isEnrollmentDisconnected(error));
      assert.equal(error.reason, 'mfa_required');
      assert.equal(disconnectReason(error), 'mfa_required');
      assert.equal(error.enrollmentStatus?.status, 'disconnected');
      return true;
    });
  });
});

describe('errors', () => {
  const cases: [number, string, (error: unknown) => boolean][] = [
    [410, 'account.closed', isAccountClosed],
    [410, 'account.closed.user_request', isAccountClosed],
    [404, 'account_number_verification_pending', isVerificationPending],
    [404, 'account_number_verification_expired', isVerificationExpired],
    [404, 'enrollment.disconnected', isEnrollmentDisconnected],
  ];
  for (const [status, code, guard] of cases) {
    it(`${status} ${code}`, async () => {
      const { fetch } = fakeFetch(() => apiError(status, code, 'message text'));
      const client = createClient({ token, baseUrl, fetch });
      await assert.rejects(client.accounts.details('acc_chk'), (error: ApiError) => {
        assert.ok(error instanceof ApiError);
        assert.equal(error.status, status);
        assert.equal(error.code, code);
        assert.equal(error.message, 'message text');
        assert.equal(error.operation, 'GET /accounts/{account_id}/details');
        assert.ok(guard(error));
        return true;
      });
    });
  }

  const byStatus: [number, typeof ApiError, string][] = [
    [400, BadRequestError, 'BadRequestError'],
    [401, AuthenticationError, 'AuthenticationError'],
    [403, PermissionDeniedError, 'PermissionDeniedError'],
    [404, NotFoundError, 'NotFoundError'],
    [410, GoneError, 'GoneError'],
    [422, UnprocessableEntityError, 'UnprocessableEntityError'],
    [429, RateLimitError, 'RateLimitError'],
    [502, BadGatewayError, 'BadGatewayError'],
    [503, ServiceUnavailableError, 'ServiceUnavailableError'],
    [504, GatewayTimeoutError, 'GatewayTimeoutError'],
    [500, InternalServerError, 'InternalServerError'],
    [501, InternalServerError, 'InternalServerError'],
    [599, InternalServerError, 'InternalServerError'],
  ];
  it('each status is thrown as its own class, every one an ApiError with the code and request id', async () => {
    for (const [status, StatusClass, name] of byStatus) {
      const { fetch } = fakeFetch(() => apiError(status, `code_${status}`, 'message text', { 'Request-Id': `req_${status}` }));
      const client = createClient({ token, baseUrl, fetch, retry: false });
      const error = await client.accounts.list().then(
        () => assert.fail('no error'),
        (thrown: unknown) => thrown,
      );
      assert.ok(error instanceof StatusClass, `${status} is a ${name}`);
      assert.ok(error instanceof ApiError && error instanceof AggregationError);
      assert.equal(error.name, name);
      assert.equal(error.status, status);
      assert.equal(error.code, `code_${status}`);
      assert.equal(error.requestId, `req_${status}`);
      assert.equal(apiErrorClassFor(status), StatusClass);
      for (const [other, OtherClass] of byStatus) {
        if (OtherClass !== StatusClass) assert.ok(!(error instanceof OtherClass), `${status} is not a ${other}`);
      }
    }
  });

  it('a status without a class of its own is a plain ApiError', async () => {
    for (const status of [405, 409, 413, 418]) {
      const { fetch } = fakeFetch(() => apiError(status, 'other'));
      await assert.rejects(createClient({ token, baseUrl, fetch }).accounts.list(), (error: ApiError) => {
        assert.equal(Object.getPrototypeOf(error), ApiError.prototype);
        assert.equal(error.status, status);
        return true;
      });
    }
  });

  it('the guards of the codes still work on the status classes', async () => {
    const { fetch } = fakeFetch(() => apiError(410, 'account.closed.user_request'));
    await assert.rejects(createClient({ token, baseUrl, fetch }).accounts.get('acc_chk'), (error: unknown) => {
      assert.ok(error instanceof GoneError && isAccountClosed(error));
      assert.equal(error.reason, 'user_request');
      return true;
    });
  });

  it('the closed reason is the tokens after account.closed', async () => {
    const { fetch } = fakeFetch(() => apiError(410, 'account.closed.moved.insufficient_access'));
    await assert.rejects(createClient({ token, baseUrl, fetch }).accounts.get('acc_chk'), (error: ApiError) => {
      assert.ok(isAccountClosed(error));
      assert.equal(error.reason, 'moved.insufficient_access');
      assert.equal(isEnrollmentDisconnected(error), false);
      return true;
    });
  });

  it('422 carries params', async () => {
    const { fetch } = fakeFetch(() => apiError(422, 'unprocessable_entity', 'Invalid body', {}, { amount: ['must be a decimal string'] }));
    const client = createClient({ token, baseUrl, fetch });
    await assert.rejects(client.payments.create(checking, paymentBody), (error: ApiError) => {
      assert.ok(isValidationError(error));
      assert.deepEqual(error.params, { amount: ['must be a decimal string'] });
      return true;
    });
  });

  it('a non-JSON error body still becomes an ApiError', async () => {
    const { fetch } = fakeFetch(() => new Response('<html>bad gateway</html>', { status: 500, statusText: 'Internal Server Error' }));
    await assert.rejects(createClient({ token, baseUrl, fetch }).accounts.list(), (error: ApiError) => {
      assert.equal(error.status, 500);
      assert.equal(error.code, 'http_500');
      assert.equal(error.body, '<html>bad gateway</html>');
      return true;
    });
  });

  it('an empty error body (HEAD-like) still becomes an ApiError', async () => {
    const { fetch } = fakeFetch(() => new Response(null, { status: 403 }));
    await assert.rejects(createClient({ token, baseUrl, fetch }).accounts.delete('acc_chk'), (error: ApiError) => error.status === 403);
  });

  it('204 resolves with the response info', async () => {
    const { fetch, calls } = fakeFetch(() => new Response(null, { status: 204 }));
    const client = createClient({ token, baseUrl, fetch });
    assert.equal((await client.accounts.delete('acc_chk')).status, 204);
    assert.equal((await client.accounts.deleteAll()).status, 204);
    assert.deepEqual(
      calls.map((c) => `${c.method} ${c.url.pathname}`),
      ['DELETE /accounts/acc_chk', 'DELETE /accounts'],
    );
  });
});

describe('payees and payments', () => {
  it('a payee or an MFA challenge, never confused', async () => {
    const payee = { scheme: 'zelle', address: 'bob@example.com', name: 'Bob', type: 'person', account_id: 'acc_chk', links: { account: '' } };
    const { fetch, calls } = fakeFetch((_, i) => (i === 0 ? json(payee) : json({ connect_token: 'ct_123' })));
    const client = createClient({ token, baseUrl, fetch });
    const body = { scheme: 'zelle', address: 'bob@example.com', name: 'Bob', type: 'person' } as const;
    const first = await client.payees.create('acc_chk', body);
    assert.equal(first.kind, 'payee');
    if (first.kind === 'payee') assert.equal(first.payee.name, 'Bob');
    const second = await client.payees.create('acc_chk', body);
    assert.deepEqual(second.kind === 'mfa' && second.connectToken, 'ct_123');
    assert.equal(calls[0]?.headers.get('Content-Type'), 'application/json');
    assert.deepEqual(JSON.parse(calls[0]?.body ?? ''), body);
  });

  it('a payment (202) or an MFA challenge (200)', async () => {
    const { fetch } = fakeFetch((_, i) => (i === 0 ? json(payment, 202) : json({ connect_token: 'ct_456' })));
    const client = createClient({ token, baseUrl, fetch });
    const paid = await client.payments.create(checking, paymentBody);
    assert.equal(paid.kind, 'payment');
    if (paid.kind === 'payment') {
      assert.equal(paid.status, 202);
      assert.equal(paid.payment.id, 'pay_1');
    }
    const challenged = await client.payments.create(checking, paymentBody);
    assert.equal(challenged.kind, 'mfa');
    if (challenged.kind === 'mfa') assert.equal(challenged.connectToken, 'ct_456');
    assert.ok(!('payment' in challenged));
  });

  it('refuses an account whose links have no payments, without sending', async () => {
    const { fetch, calls } = fakeFetch(() => json(payment, 202));
    const client = createClient({ token, baseUrl, fetch });
    await assert.rejects(client.payments.create(card, paymentBody), (error: PaymentsNotSupportedError) => {
      assert.ok(error instanceof PaymentsNotSupportedError);
      assert.equal(error.accountId, 'acc_card');
      return true;
    });
    assert.equal(calls.length, 0);
  });

  it('fetches the account first when given an id', async () => {
    const { fetch, calls } = fakeFetch((request) => (request.method === 'GET' ? json(card) : json(payment, 202)));
    const client = createClient({ token, baseUrl, fetch });
    await assert.rejects(client.payments.create('acc_card', paymentBody), PaymentsNotSupportedError);
    assert.deepEqual(
      calls.map((c) => c.method),
      ['GET'],
    );
  });

  it('uses links already seen in accounts.list instead of fetching', async () => {
    const { fetch, calls } = fakeFetch((request) => (request.method === 'GET' ? json([checking, card]) : json(payment, 202)));
    const client = createClient({ token, baseUrl, fetch });
    await client.accounts.list();
    await assert.rejects(client.payments.create('acc_card', paymentBody), PaymentsNotSupportedError);
    const result = await client.payments.create('acc_chk', paymentBody);
    assert.equal(result.kind, 'payment');
    assert.deepEqual(
      calls.map((c) => `${c.method} ${c.url.pathname}`),
      ['GET /accounts', 'POST /accounts/acc_chk/payments'],
    );
  });

  it('checkAccount: false skips the lookup', async () => {
    const { fetch, calls } = fakeFetch(() => json(payment, 202));
    const client = createClient({ token, baseUrl, fetch });
    await client.payments.create('acc_chk', paymentBody, { checkAccount: false, idempotencyKey: 'k1' });
    assert.deepEqual(
      calls.map((c) => c.method),
      ['POST'],
    );
    assert.equal(calls[0]?.headers.get('Idempotency-Key'), 'k1');
  });

  it('an Idempotency-Key given as a header is kept', async () => {
    const { fetch, calls } = fakeFetch(() => json(payment, 202));
    const client = createClient({ token, baseUrl, fetch });
    const result = await client.payments.create(checking, paymentBody, { headers: { 'idempotency-key': 'from-header' } });
    assert.equal(result.idempotencyKey, 'from-header');
    assert.equal(calls[0]?.headers.get('Idempotency-Key'), 'from-header');
  });

  it('lists and reads payments and schemes', async () => {
    const { fetch, calls } = fakeFetch((request) => {
      if (request.method === 'OPTIONS') return json({ schemes: [{ name: 'zelle' }] });
      return request.url.pathname.endsWith('/pay_1') ? json(payment) : json([payment]);
    });
    const client = createClient({ token, baseUrl, fetch });
    assert.equal((await client.payments.list('acc_chk'))[0]?.id, 'pay_1');
    assert.equal((await client.payments.get('acc_chk', 'pay_1')).memo, 'Dinner');
    assert.equal((await client.payments.schemes('acc_chk')).schemes[0]?.name, 'zelle');
    assert.deepEqual(
      calls.map((c) => `${c.method} ${c.url.pathname}`),
      ['GET /accounts/acc_chk/payments', 'GET /accounts/acc_chk/payments/pay_1', 'OPTIONS /accounts/acc_chk/payments'],
    );
  });
});

describe('other reads', () => {
  it('refuses empty ids instead of calling another path', async () => {
    const { fetch, calls } = fakeFetch(() => json([]));
    const client = createClient({ token, baseUrl, fetch });
    await assert.rejects(client.accounts.get(''), TypeError);
    await assert.rejects(client.transactions.get('acc_1', ''), TypeError);
    await assert.rejects(client.accounts.delete(''), TypeError);
    assert.equal(calls.length, 0);
  });

  it('details, balances, transactions, institutions', async () => {
    const { fetch, calls } = fakeFetch((request) => {
      const path = request.url.pathname;
      if (path === '/institutions') return json([{ id: 'chase', name: 'Chase', products: ['balance'] }]);
      if (path.endsWith('/details')) return json({ account_id: 'acc_chk', account_number: '1', routing_numbers: { ach: '021000021' }, links: {} });
      if (path.endsWith('/balances')) return json({ account_id: 'acc_chk', ledger: '10.00', available: '9.00', links: {} });
      if (path.endsWith('/txn_1')) return json({ id: 'txn_1' });
      return json([{ id: 'txn_1' }]);
    });
    const client = createClient({ token, baseUrl, fetch });
    assert.equal((await client.institutions.list())[0]?.id, 'chase');
    assert.equal((await client.accounts.details('acc_chk')).routing_numbers.ach, '021000021');
    assert.equal((await client.accounts.balances('acc_chk')).available, '9.00');
    assert.equal((await client.transactions.get('acc_chk', 'txn_1')).id, 'txn_1');
    await client.transactions.list('acc_chk', { count: 5, start_date: '2024-01-01' });
    assert.equal(calls.at(-1)?.url.search, '?count=5&start_date=2024-01-01');
  });
});
