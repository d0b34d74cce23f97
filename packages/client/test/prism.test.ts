// The client against the Prism mock of the bundled description: every operation, success and error answers.
// Prism checks the requests against the description (auth, headers, bodies) and answers from its examples;
// `Prefer: code=..., example=...` chooses the answer.
import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, it } from 'vitest';
import {
  type AggregationClient,
  ApiError,
  createClient,
  getResponseInfo,
  isAccountClosed,
  isEnrollmentDisconnected,
  isRateLimited,
  isValidationError,
  isVerificationExpired,
  isVerificationPending,
} from '../src/index.ts';
import { bundlePath, missingBundle, type RunningPrism, startPrism } from './helpers/prism.ts';

const prefer = (value: string) => ({ headers: { Prefer: value } });
const skip = missingBundle('2020-10-12');
const skipOlder = missingBundle('2019-07-01');

/**
 * Both mocks start when the first is asked for: Prism spends its start reading the description, so the second starts
 * while the first one's tests run instead of after them.
 */
const prisms = new Map<'2020-10-12' | '2019-07-01', Promise<RunningPrism>>();
function prismOf(name: '2020-10-12' | '2019-07-01'): Promise<RunningPrism> {
  if (prisms.size === 0) {
    for (const version of [...(skip ? [] : ['2020-10-12' as const]), ...(skipOlder ? [] : ['2019-07-01' as const])]) {
      const starting = startPrism(bundlePath(version));
      // Awaited by the tests of its version, which fail with its error.
      starting.catch(() => {});
      prisms.set(version, starting);
    }
  }
  return prisms.get(name)!;
}
afterAll(async () => {
  await Promise.all([...prisms.values()].map(async (starting) => (await starting.catch(() => undefined))?.stop()));
});
const payment = { amount: '25.00', memo: 'Dinner split', payee: { scheme: 'zelle', address: 'jane.doe@example.com' } } as const;
const payee = { scheme: 'zelle', address: 'jane.doe@example.com', name: 'Jane Doe', type: 'person' } as const;

describe.skipIf(skip)('against the Prism mock of 2020-10-12', () => {
  let prism: RunningPrism;
  let client: AggregationClient<'2020-10-12'>;
  const waits: number[] = [];

  beforeAll(async () => {
    prism = await prismOf('2020-10-12');
    client = createClient({
      token: 'test_token_prism',
      baseUrl: prism.baseUrl,
      version: '2020-10-12',
      retry: { maxRetries: 1, sleep: async (ms) => void waits.push(ms) },
    });
  });

  describe('success', () => {
    it('listAccounts', async () => {
      const accounts = await client.accounts.list();
      assert.ok(accounts.length > 0);
      for (const account of accounts) {
        assert.match(account.id, /^acc_/);
        assert.equal(typeof account.institution.name, 'string');
      }
      assert.equal(getResponseInfo(accounts)?.version, '2020-10-12');
    });

    it('getAccount, with the enrollment status', async () => {
      const account = await client.accounts.get('acc_7Tq2Xw9Lk4Zp1Mv8');
      assert.match(account.id, /^acc_/);
      assert.equal(getResponseInfo(account)?.enrollmentStatus?.status, 'healthy');
      assert.equal(client.enrollmentStatus?.status, 'healthy');
    });

    it('deleteAccount and deleteAccounts (204)', async () => {
      assert.equal((await client.accounts.delete('acc_7Tq2Xw9Lk4Zp1Mv8')).status, 204);
      assert.equal((await client.accounts.deleteAll()).status, 204);
    });

    it('getAccountDetails', async () => {
      const details = await client.accounts.details('acc_7Tq2Xw9Lk4Zp1Mv8');
      assert.equal(typeof details.account_number, 'string');
      assert.equal(getResponseInfo(details)?.enrollmentStatus?.status, 'healthy');
    });

    it('getAccountBalances', async () => {
      const balances = await client.accounts.balances('acc_7Tq2Xw9Lk4Zp1Mv8');
      assert.match(balances.ledger, /^-?\d+\.\d{2}$/);
    });

    it('listTransactions, with its query', async () => {
      const transactions = await client.transactions.list('acc_7Tq2Xw9Lk4Zp1Mv8', {
        count: 50,
        from_id: 'txn_4Yw8Kd2Nq6Rb9Tc1',
        start_date: '2025-01-01',
        end_date: '2025-03-31',
      });
      assert.ok(transactions.length > 0);
      assert.ok(transactions.every((t) => t.status === 'posted' || t.status === 'pending'));
    });

    it('iterate and sync over the mock', async () => {
      const seen = [];
      for await (const transaction of client.transactions.iterate('acc_7Tq2Xw9Lk4Zp1Mv8', { pageSize: 100 })) seen.push(transaction.id);
      assert.ok(seen.length > 0);
      const result = await client.transactions.sync('acc_7Tq2Xw9Lk4Zp1Mv8', { state: { lastSyncedAt: new Date().toISOString() } });
      assert.equal(result.inserted.length, seen.length);
    });

    it('getTransaction', async () => {
      const transaction = await client.transactions.get('acc_7Tq2Xw9Lk4Zp1Mv8', 'txn_4Yw8Kd2Nq6Rb9Tc1');
      assert.match(transaction.id, /^txn_/);
    });

    it('createPayee: payee and MFA challenge', async () => {
      const created = await client.payees.create('acc_7Tq2Xw9Lk4Zp1Mv8', payee);
      assert.equal(created.kind, 'payee');
      const challenged = await client.payees.create('acc_7Tq2Xw9Lk4Zp1Mv8', payee, prefer('example=MfaChallenge'));
      assert.equal(challenged.kind, 'mfa');
      if (challenged.kind === 'mfa') assert.match(challenged.connectToken, /^ct_/);
    });

    it('listPaymentSchemes', async () => {
      const schemes = await client.payments.schemes('acc_7Tq2Xw9Lk4Zp1Mv8');
      assert.deepEqual(
        schemes.schemes.map((s) => s.name),
        ['zelle'],
      );
    });

    it('createPayment: 202 payment (guard satisfied by the account links) and 200 MFA', async () => {
      const [checking] = (await client.accounts.list()).filter((a) => a.links.payments);
      assert.ok(checking);
      const paid = await client.payments.create(checking, payment, prefer('code=202'));
      assert.equal(paid.kind, 'payment');
      if (paid.kind === 'payment') {
        assert.equal(paid.status, 202);
        assert.match(paid.payment.id, /^pay_/);
      }
      const challenged = await client.payments.create(checking, payment);
      assert.equal(challenged.kind, 'mfa');
    });

    it('listPayments and getPayment', async () => {
      const payments = await client.payments.list('acc_7Tq2Xw9Lk4Zp1Mv8');
      assert.ok(payments.every((p) => p.id.startsWith('pay_')));
      const one = await client.payments.get('acc_7Tq2Xw9Lk4Zp1Mv8', 'pay_6Jd2Sx9Fh4Kw1Bn7');
      assert.match(one.id, /^pay_/);
    });

    it('listInstitutions', async () => {
      const institutions = await client.institutions.list();
      assert.ok(institutions.some((i) => i.products.includes('transactions')));
    });

    it('getEntrypoint', async () => {
      const { links } = await client.entrypoint();
      assert.match(links.accounts, /\/accounts$/);
      assert.match(links.institutions, /\/institutions$/);
    });

    it('the raw client', async () => {
      const { data, response } = await client.raw.GET('/accounts/{account_id}/transactions/{transaction_id}', {
        params: { path: { account_id: 'acc_7Tq2Xw9Lk4Zp1Mv8', transaction_id: 'txn_4Yw8Kd2Nq6Rb9Tc1' } },
      });
      assert.equal(response.status, 200);
      assert.match(data?.id ?? '', /^txn_/);
    });
  });

  describe('errors', () => {
    const errorCases: [string, () => Promise<unknown>, (error: ApiError) => void][] = [
      ['410 account.closed', () => client.accounts.get('acc_5Pk3Nx8Ra1Ls6Yf4', prefer('code=410')), (e) => assert.ok(isAccountClosed(e))],
      [
        '410 account.closed.<reason>',
        () => client.accounts.balances('acc_1', prefer('code=410, example=AccountClosedReason')),
        (e) => {
          assert.ok(isAccountClosed(e));
          assert.ok(e.reason);
        },
      ],
      [
        '404 verification pending',
        () => client.accounts.details('acc_1', prefer('code=404, example=VerificationPending')),
        (e) => assert.ok(isVerificationPending(e)),
      ],
      [
        '404 verification expired',
        () => client.accounts.details('acc_1', prefer('code=404, example=VerificationExpired')),
        (e) => assert.ok(isVerificationExpired(e)),
      ],
      [
        '404 enrollment.disconnected',
        () => client.transactions.list('acc_1', {}, prefer('code=404, example=EnrollmentDisconnected')),
        (e) => assert.ok(isEnrollmentDisconnected(e)),
      ],
      ['404 not_found', () => client.payments.get('acc_1', 'pay_x', prefer('code=404, example=PaymentNotFound')), (e) => assert.equal(e.status, 404)],
      [
        '422 invalid payment, with params',
        () => client.payments.create({ id: 'acc_1', links: { payments: 'x' } }, payment, prefer('code=422, example=InvalidPayment')),
        (e) => {
          assert.ok(isValidationError(e));
          assert.ok(e.params && Object.keys(e.params).length > 0);
        },
      ],
      ['422 payments.not_supported', () => client.payments.schemes('acc_1', prefer('code=422')), (e) => assert.ok(e.hasCode('payments.not_supported'))],
      [
        '422 idempotency_key_reused',
        () => client.payments.create({ id: 'acc_1', links: { payments: 'x' } }, payment, prefer('code=422, example=IdempotencyKeyReused')),
        (e) => assert.equal(e.code, 'idempotency_key_reused'),
      ],
      ['400 bad_request', () => client.accounts.list(prefer('code=400')), (e) => assert.equal(e.code, 'bad_request')],
      ['403 forbidden', () => client.accounts.list(prefer('code=403')), (e) => assert.equal(e.code, 'forbidden')],
      ['502 bad_gateway (retried, then thrown)', () => client.accounts.list(prefer('code=502')), (e) => assert.equal(e.code, 'bad_gateway')],
    ];
    for (const [name, call, check] of errorCases) {
      it(name, async () => {
        await assert.rejects(call(), (error: ApiError) => {
          assert.ok(error instanceof ApiError, String(error));
          check(error);
          return true;
        });
      });
    }

    it('429 is retried after Retry-After, then thrown with it', async () => {
      waits.length = 0;
      await assert.rejects(client.accounts.list(prefer('code=429')), (error: ApiError) => {
        assert.ok(isRateLimited(error));
        assert.equal(typeof error.retryAfter, 'number');
        return true;
      });
      assert.deepEqual(waits, [30_000]);
    });

    it('401 without credentials (raw fetch: the client always authenticates)', async () => {
      const response = await fetch(`${prism.baseUrl}/accounts`);
      assert.equal(response.status, 401);
    });

    it('a body Prism finds invalid is a 422 with params', async () => {
      // Sent as-is on purpose: the types would refuse it.
      const bad = { amount: 'ten', memo: 'x', payee: { scheme: 'zelle', address: 'a@example.com' } } as const;
      await assert.rejects(client.payments.create({ id: 'acc_1', links: { payments: 'x' } }, bad), (error: ApiError) => {
        assert.equal(error.status, 422);
        return true;
      });
    });
  });
});

describe.skipIf(skipOlder)('against the Prism mock of 2019-07-01', () => {
  let prism: RunningPrism;
  beforeAll(async () => {
    prism = await prismOf('2019-07-01');
  });

  it('reads the older shapes', async () => {
    const client = createClient({ token: 'test_token_prism', baseUrl: prism.baseUrl, version: '2019-07-01', retry: false });
    const [account] = await client.accounts.list();
    assert.equal(typeof account?.institution, 'string');
    const balances = await client.accounts.balances('acc_1');
    assert.ok(Array.isArray(balances));
    const schemes = await client.payments.schemes('acc_1');
    assert.deepEqual(
      schemes.schemes.map((s) => s.scheme),
      ['zelle'],
    );
    const transactions = await client.transactions.list('acc_1');
    assert.ok(transactions.every((t) => !('status' in t)));
  });
});
