// Transactions: newest-first lists with keyset pagination (long ones streamed), and single reads.
import { noteTransactionsFetched, openTransactionList, transactionOf } from '../../domain/transactions.ts';
import { answer } from '../answer.ts';
import { presentTransaction } from '../present.ts';
import { pathAccount } from './accounts.ts';
import type { ApiHandlers } from './types.ts';

/** Pages up to this size are rendered whole (and may be replayed); longer lists are streamed. */
const WHOLE_PAGE_MAX = 500;

export const transactionHandlers = {
  listTransactions: {
    reachesInstitution: true,
    enrollmentStatus: true,
    handle: async (c, runtime) => {
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
        return answer.json(c, runtime, 'listTransactions', 200, page);
      }
      return answer.stream(c, runtime, 'listTransactions', {
        async *[Symbol.asyncIterator]() {
          for await (const row of rows) yield presentTransaction(base, row);
        },
      });
    },
  },

  getTransaction: {
    reachesInstitution: true,
    enrollmentStatus: true,
    handle: async (c, runtime) => {
      const account = await pathAccount(c, runtime, { reachesInstitution: true });
      const row = await transactionOf(runtime.deps, account, c.req.param('transaction_id')!);
      return answer.json(c, runtime, 'getTransaction', 200, presentTransaction(c.get('base'), row));
    },
  },
} satisfies Partial<ApiHandlers>;
