// Type-level proof that the generated modules carry the contract: this file only has to compile.
// Each `@ts-expect-error` marks a line that must NOT compile; if the types ever allowed it, tsc fails.

import type { components as Older } from '@aggregation/types/2019-07-01';
import type { components as Current, paths as CurrentPaths, webhooks } from '@aggregation/types/2020-10-12';
import type { paths as SandboxPaths } from '@aggregation/types/sandbox';

type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
const assert = <T extends true>(): T => true as T;

type Account = Current['schemas']['Account'];
type OlderAccount = Older['schemas']['Account'];

// The institution is an object today and was a plain name in 2019-07-01.
assert<Equal<Account['institution'], { id: string; name: string }>>();
assert<Equal<OlderAccount['institution'], string>>();

// Fields moved between versions.
assert<Equal<'currency' extends keyof Account ? true : false, true>>();
assert<Equal<'currency_code' extends keyof Account ? true : false, false>>();
assert<Equal<'currency_code' extends keyof OlderAccount ? true : false, true>>();
assert<Equal<'account_number' extends keyof OlderAccount ? true : false, true>>();

// Enums are closed.
assert<Equal<Account['type'], 'depository' | 'credit'>>();
assert<Equal<Account['status'], 'open' | 'closed'>>();
assert<Equal<OlderAccount['type'], 'bank_account'>>();

// Balances: one object today, an array of typed amounts in 2019-07-01.
assert<Equal<Current['schemas']['AccountBalances'] extends unknown[] ? true : false, false>>();
assert<Equal<Older['schemas']['AccountBalances'] extends unknown[] ? true : false, true>>();

// running_balance is nullable; the pending/posted status is closed.
assert<Equal<Current['schemas']['Transaction']['running_balance'], string | null>>();
assert<Equal<Current['schemas']['Transaction']['status'], 'posted' | 'pending'>>();

const account: Account = {
  id: 'acc_1',
  enrollment_id: 'enr_1',
  currency: 'USD',
  institution: { id: 'chase', name: 'Chase' },
  last_four: '1234',
  name: 'Checking',
  type: 'depository',
  subtype: 'checking',
  status: 'open',
  links: {
    self: 'http://localhost:3000/accounts/acc_1',
    details: 'http://localhost:3000/accounts/acc_1/details',
    balances: 'http://localhost:3000/accounts/acc_1/balances',
    transactions: 'http://localhost:3000/accounts/acc_1/transactions',
  },
};

// @ts-expect-error a field the contract does not have
const wrongField: Account = { ...account, institution_name: 'Chase' };

// @ts-expect-error the older version's string institution is not the current shape
const wrongShape: Account = { ...account, institution: 'Chase' };

// @ts-expect-error a subtype outside the enum
const wrongSubtype: Account = { ...account, subtype: 'brokerage' };

type CreatePaymentBody = NonNullable<CurrentPaths['/accounts/{account_id}/payments']['post']['requestBody']>['content']['application/json'];
// @ts-expect-error amount is required
const missingAmount: CreatePaymentBody = { memo: 'Rent', payee: { scheme: 'zelle', address: 'a@example.com' } };

// Every operation of the seed is a typed path item.
type Operations = {
  listAccounts: CurrentPaths['/accounts']['get'];
  deleteAccounts: CurrentPaths['/accounts']['delete'];
  getAccount: CurrentPaths['/accounts/{account_id}']['get'];
  deleteAccount: CurrentPaths['/accounts/{account_id}']['delete'];
  getAccountDetails: CurrentPaths['/accounts/{account_id}/details']['get'];
  getAccountBalances: CurrentPaths['/accounts/{account_id}/balances']['get'];
  listTransactions: CurrentPaths['/accounts/{account_id}/transactions']['get'];
  getTransaction: CurrentPaths['/accounts/{account_id}/transactions/{transaction_id}']['get'];
  createPayee: CurrentPaths['/accounts/{account_id}/payees']['post'];
  listPaymentSchemes: CurrentPaths['/accounts/{account_id}/payments']['options'];
  createPayment: CurrentPaths['/accounts/{account_id}/payments']['post'];
  listPayments: CurrentPaths['/accounts/{account_id}/payments']['get'];
  getPayment: CurrentPaths['/accounts/{account_id}/payments/{payment_id}']['get'];
  listInstitutions: CurrentPaths['/institutions']['get'];
  createSandboxEnrollment: SandboxPaths['/sandbox/enrollments']['post'];
};
assert<Equal<keyof Operations extends string ? true : false, true>>();

// The four webhook events are typed request bodies.
type WebhookNames = keyof webhooks;
assert<Equal<WebhookNames, 'enrollment.disconnected' | 'transactions.processed' | 'account.number_verification.processed' | 'webhook.test'>>();

export { missingAmount, wrongField, wrongShape, wrongSubtype };
