// 2019-07-01: the shapes before 2020-10-12.

import type { Account, AccountBalances, Transaction } from '../contract/resources.ts';
import type { components, v20190701Components } from '../contract/types.ts';
import type { VersionChange } from './change.ts';

// The older shapes, from the 2019-07-01 description: a rewrite that produces anything else fails the type check.
type Older = v20190701Components['schemas'];
type Current = components['schemas'];

function olderTransaction(transaction: Transaction): Older['Transaction'] {
  return {
    id: transaction.id,
    amount: transaction.amount,
    date: transaction.date,
    description: transaction.description,
    type: transaction.type,
    counterparty: transaction.details.counterparty.name,
    links: transaction.links,
  };
}

export const change: VersionChange = {
  version: '2019-07-01',
  description:
    'Account: currency_code, country_code, institution name, account and routing numbers, type bank_account. ' +
    'Balances: an array. Transactions: top-level counterparty, no status, account_id, running_balance or details. ' +
    'Payment schemes keyed `scheme`.',
  resources: {
    async Account(account: Account, context): Promise<Older['Account']> {
      const details = await context.details(account.id);
      const routing: Older['Account']['routing_numbers'] = [];
      if (details?.routing_numbers.ach) routing.push({ type: 'ach', number: details.routing_numbers.ach });
      if (details?.routing_numbers.wire) routing.push({ type: 'wire', number: details.routing_numbers.wire });
      return {
        id: account.id,
        enrollment_id: account.enrollment_id,
        currency_code: account.currency,
        country_code: 'US',
        institution: account.institution.name,
        last_four: account.last_four,
        name: account.name,
        type: 'bank_account',
        subtype: account.subtype,
        status: account.status,
        account_number: details?.account_number ?? null,
        routing_numbers: routing,
        links: account.links,
      };
    },
    AccountBalances(balances: AccountBalances): Older['AccountBalances'] {
      return (['ledger', 'available'] as const).map((type) => ({ type, amount: balances[type], links: balances.links }));
    },
    Transaction: olderTransaction,
    PaymentSchemes(schemes: { schemes: { name: 'zelle' }[] }): Older['PaymentSchemes'] {
      return { schemes: schemes.schemes.map((scheme) => ({ scheme: scheme.name })) };
    },
  },
  events: {
    async 'transactions.processed'(payload: Current['TransactionsProcessedPayload']): Promise<Older['TransactionsProcessedPayload']> {
      return { enrollment_id: payload.enrollment_id, transactions: payload.transactions.map(olderTransaction) };
    },
  },
  requests: {},
};
