// Transactions: newest-first lists with keyset pagination (long ones streamed), and single reads.

import { noteTransactionsFetched, openTransactionList, transactionOf } from '../../domain/transactions.ts';
import type { Runtime } from '../env.ts';
import { presentTransaction } from '../present.ts';
import { apiJson, apiJsonStream } from '../respond.ts';
import type { Router } from '../router.ts';
import { pathAccount } from './accounts.ts';

/** Pages up to this size are rendered whole (and may be replayed); longer lists are streamed. */
const WHOLE_PAGE_MAX = 500;

export function transactionRoutes(r: Router, runtime: Runtime): void {
  const options = { document: 'api', reachesInstitution: true, enrollmentStatus: true } as const;

  r.route('get', '/accounts/:account_id/transactions', { ...options, operationId: 'listTransactions' }, async (c) => {
    const account = await pathAccount(c, runtime, { reachesInstitution: true });
    await runtime.deps.institutions.admitTransactions(runtime.deps.store, c.get('enrollment'));
    const params = c.get('params');
    const rows = await openTransactionList(runtime.deps, account, {
      count: params.count as number | undefined,
      fromId: params.from_id as string | undefined,
      startDate: params.start_date as string | undefined,
      endDate: params.end_date as string | undefined,
    });
    await noteTransactionsFetched(runtime.deps, c.get('enrollment'), account);
    const base = c.get('base');
    const count = params.count as number | undefined;
    if (count !== undefined && count <= WHOLE_PAGE_MAX) {
      const page = [];
      for await (const row of rows) page.push(presentTransaction(base, row));
      return apiJson(c, runtime, 'listTransactions', 200, page);
    }
    return apiJsonStream(c, runtime, 'listTransactions', {
      async *[Symbol.asyncIterator]() {
        for await (const row of rows) yield presentTransaction(base, row);
      },
    });
  });

  r.route('get', '/accounts/:account_id/transactions/:transaction_id', { ...options, operationId: 'getTransaction' }, async (c) => {
    const account = await pathAccount(c, runtime, { reachesInstitution: true });
    const row = await transactionOf(runtime.deps, account, c.req.param('transaction_id')!);
    return apiJson(c, runtime, 'getTransaction', 200, presentTransaction(c.get('base'), row));
  });
}
