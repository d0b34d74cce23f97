// Type tests: this file is only compiled (npm run typecheck), never run. Each `@ts-expect-error` marks a line that
// must NOT compile; if the client's types ever allowed it, tsc would fail on the unused directive.
import type { operations as Current } from '@aggregation/types/2020-10-12';
import {
  type Account,
  type AggregationClient,
  createClient,
  type IdempotencyKeyedPost,
  type idempotencyKeyedPosts,
  type PaymentResult,
  type Transaction,
  verifyWebhook,
  type WebhookEvent,
} from '../../src/index.ts';

type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
const assert = <T extends true>(): T => true as T;

declare const client: AggregationClient;
declare const older: AggregationClient<'2019-07-01'>;

export async function currentVersion() {
  const current = createClient({ token: 'test_token_x' });
  assert<Equal<typeof current, AggregationClient<'2020-10-12'>>>();

  const [account] = await client.accounts.list();
  if (account) {
    assert<Equal<typeof account.institution, { id: string; name: string }>>();
    // @ts-expect-error 2019-07-01 field, not in 2020-10-12
    account.currency_code;
  }

  // Named methods return exactly the contract's success bodies.
  assert<Equal<Awaited<ReturnType<typeof client.accounts.get>>, Current['getAccount']['responses'][200]['content']['application/json']>>();
  assert<Equal<Awaited<ReturnType<typeof client.accounts.balances>>, Current['getAccountBalances']['responses'][200]['content']['application/json']>>();
  assert<Equal<Awaited<ReturnType<typeof client.transactions.list>>, Current['listTransactions']['responses'][200]['content']['application/json']>>();

  const balances = await client.accounts.balances('acc_1');
  balances.ledger satisfies string;

  await client.transactions.list('acc_1', { count: 10, from_id: 'txn_1', start_date: '2024-01-01' });
  // @ts-expect-error count is an integer
  await client.transactions.list('acc_1', { count: '10' });
  // @ts-expect-error unknown query parameter
  await client.transactions.list('acc_1', { cursor: 'x' });

  for await (const transaction of client.transactions.iterate('acc_1', { startDate: '2024-01-01' })) {
    transaction.status satisfies 'pending' | 'posted';
  }
}

export async function payeesAndPayments() {
  await client.payees.create('acc_1', { scheme: 'zelle', address: 'a@example.com', name: 'Ann', type: 'person' });
  // @ts-expect-error misspelt field name
  await client.payees.create('acc_1', { scheme: 'zelle', adress: 'a@example.com', name: 'Ann', type: 'person' });
  // @ts-expect-error missing required field (type)
  await client.payees.create('acc_1', { scheme: 'zelle', address: 'a@example.com', name: 'Ann' });
  // @ts-expect-error scheme outside the enum
  await client.payees.create('acc_1', { scheme: 'venmo', address: 'a@example.com', name: 'Ann', type: 'person' });

  const body = { amount: '10.00', memo: 'Rent', payee: { scheme: 'zelle', address: 'a@example.com' } } as const;
  const result = await client.payments.create('acc_1', body);
  // @ts-expect-error the MFA challenge has no payment: narrow on kind first
  result.payment;
  if (result.kind === 'payment') result.payment.id satisfies string;
  else result.connectToken satisfies string;
  assert<Equal<typeof result, PaymentResult<'2020-10-12'>>>();

  // @ts-expect-error amount is required
  await client.payments.create('acc_1', { memo: 'Rent', payee: { scheme: 'zelle', address: 'a@example.com' } });
  // @ts-expect-error amount is a string
  await client.payments.create('acc_1', { amount: 10, memo: 'Rent', payee: { scheme: 'zelle', address: 'a@example.com' } });
  // @ts-expect-error misspelt field name
  await client.payments.create('acc_1', { amount: '10', memo: 'Rent', payee: { scheme: 'zelle', adress: 'a@example.com' } });

  const payee = await client.payees.create('acc_1', { scheme: 'zelle', address: 'a@example.com', name: 'Ann', type: 'person' });
  // @ts-expect-error a payee result must be narrowed before use
  payee.payee.name;
}

export async function entrypoint() {
  const { links } = await client.entrypoint();
  assert<Equal<typeof links, { accounts: string; institutions: string }>>();
}

export async function rawClient() {
  const { data, error } = await client.raw.GET('/accounts/{account_id}', { params: { path: { account_id: 'acc_1' } } });
  if (data) data.institution.name satisfies string;
  if (error) error.error.code satisfies string;

  // @ts-expect-error unknown path
  await client.raw.GET('/acounts');
  // @ts-expect-error missing path parameter
  await client.raw.GET('/accounts/{account_id}', { params: { path: {} } });
  await client.raw.POST('/accounts/{account_id}/payments', {
    params: { path: { account_id: 'acc_1' } },
    // @ts-expect-error missing required body field (memo)
    body: { amount: '1.00', payee: { scheme: 'zelle', address: 'a@example.com' } },
  });
  // 200 and 202 share one schema: the payment or the MFA challenge, told apart by their fields.
  const paid = await client.raw.POST('/accounts/{account_id}/payments', {
    params: { path: { account_id: 'acc_1' } },
    body: { amount: '1.00', memo: 'x', payee: { scheme: 'zelle', address: 'a@example.com' } },
  });
  if (paid.data && 'id' in paid.data) paid.data.reference satisfies string;
  if (paid.data && 'connect_token' in paid.data) paid.data.connect_token satisfies string;
}

export async function olderVersion() {
  const chosen = createClient({ token: 'test_token_x', version: '2019-07-01' });
  assert<Equal<typeof chosen, AggregationClient<'2019-07-01'>>>();

  const [account] = await older.accounts.list();
  if (account) {
    // The institution is a plain name in 2019-07-01.
    assert<Equal<typeof account.institution, string>>();
    account.currency_code satisfies string;
    // @ts-expect-error no institution object in 2019-07-01
    account.institution.name;
  }
  assert<Equal<Account<'2019-07-01'>['institution'], string>>();
  assert<Equal<Account['institution'], { id: string; name: string }>>();

  // Balances are an array of typed amounts there.
  const balances = await older.accounts.balances('acc_1');
  balances.map((balance) => balance.amount);
  // @ts-expect-error no ledger field on the 2019-07-01 balances
  balances.ledger;

  // Transactions have a counterparty string and no status.
  const transactions = await older.transactions.list('acc_1');
  transactions[0]?.counterparty satisfies string | null | undefined;
  // @ts-expect-error no status in 2019-07-01
  transactions[0]?.status;
  assert<Equal<'status' extends keyof Transaction<'2019-07-01'> ? true : false, false>>();

  const { data } = await older.raw.GET('/accounts');
  data?.[0]?.institution satisfies string | undefined;
}

export async function webhooks(rawBody: string, header: string) {
  const event = await verifyWebhook(rawBody, header, ['whsec_1']);
  switch (event.type) {
    case 'enrollment.disconnected':
      event.payload.enrollment_id satisfies string;
      // The whole status string, never null.
      assert<Equal<typeof event.payload.reason, string>>();
      break;
    case 'transactions.processed':
      event.payload.transactions[0]?.details satisfies object | undefined;
      assert<Equal<typeof event.payload.enrollment_id, string>>();
      break;
    case 'account.number_verification.processed':
      event.payload.status satisfies 'completed' | 'expired';
      assert<Equal<typeof event.payload.enrollment_id, string>>();
      break;
    case 'webhook.test':
      break;
    default:
      event satisfies never;
  }
  // @ts-expect-error not one of the four event types
  if (event.type === 'payment.settled') return;
  assert<
    Equal<WebhookEvent['type'], 'enrollment.disconnected' | 'transactions.processed' | 'account.number_verification.processed' | 'webhook.test'>
  >();
}

// The POSTs that get an Idempotency-Key are exactly those whose description declares the header: the list in
// src/idempotency.ts `satisfies` the derived union, and here the union is no wider than the list.
export function idempotencyKeyedPostsAreTheDescriptions() {
  assert<Equal<IdempotencyKeyedPost, (typeof idempotencyKeyedPosts)[number]>>();
  assert<Equal<IdempotencyKeyedPost, '/accounts/{account_id}/payments'>>();
}

export async function callOptions() {
  await client.accounts.list({ timeout: 5_000, maxRetries: 0, signal: AbortSignal.timeout(1_000), headers: { 'X-Trace': '1' } });
  await client.payments.create(
    'acc_1',
    { amount: '1.00', memo: 'm', payee: { scheme: 'zelle', address: 'a@b.c' } },
    { idempotencyKey: 'k', maxRetries: 1 },
  );
  // @ts-expect-error timeout is a number of milliseconds
  await client.accounts.list({ timeout: '5s' });
  createClient({ token: 'test_token_x', timeout: 1_000, maxRetries: 1, logLevel: 'debug', logger: console });
  // @ts-expect-error not a level
  createClient({ token: 'test_token_x', logLevel: 'verbose' });
}
