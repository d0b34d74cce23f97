// Transactions: newest-first lists with keyset pagination (long ones streamed), and single reads. A page is joined
// from its rows' JSON, kept per row stamp (rendered-rows.ts): only rows not seen at that stamp are read whole and
// rendered.
import {
  noteTransactionsFetched,
  openTransactionList,
  type TransactionFilter,
  transactionOf,
  transactionPageStamps,
  transactionsAt,
} from '../../domain/transactions.ts';
import type { AccountRow } from '../../storage/store.ts';
import { answer } from '../answer.ts';
import type { Runtime } from '../env.ts';
import { presentTransaction } from '../present.ts';
import { apiItemJson, type ItemJson, type RenderView, viewOf } from '../respond.ts';
import { pathAccount } from './accounts.ts';
import type { ApiHandlers } from './types.ts';

/** Pages up to this size are rendered whole (and may be replayed); longer lists are streamed. */
const WHOLE_PAGE_MAX = 500;

/** The list's filter from its validated parameters. */
export function transactionFilter(params: Record<string, unknown>): TransactionFilter {
  return {
    count: params.count as number | undefined,
    fromId: params.from_id as string | undefined,
    startDate: params.start_date as string | undefined,
    endDate: params.end_date as string | undefined,
  };
}

/** A list answered whole, as one page joined from its rows' JSON: one with a count up to `WHOLE_PAGE_MAX`. */
export const isJoinedPage = (filter: TransactionFilter): filter is TransactionFilter & { count: number } =>
  filter.count !== undefined && filter.count <= WHOLE_PAGE_MAX;

/**
 * The page's items as JSON: kept ones as they are, the others read and rendered (and kept). Undefined when a row
 * changed or went between the read of the page's keys and the read of its rows: the caller reads the page whole.
 */
export async function joinedPage(
  view: RenderView,
  runtime: Runtime,
  account: AccountRow,
  filter: TransactionFilter & { count: number },
): Promise<ItemJson<'listTransactions'>[] | undefined> {
  const stamps = await transactionPageStamps(runtime.deps, account, filter);
  const { renderedRows } = runtime;
  const { base } = view;
  const shape = renderedRows.shapeOf(view.version, base);
  const items = new Array<ItemJson<'listTransactions'> | undefined>(stamps.length);
  const missing: number[] = [];
  for (let index = 0; index < stamps.length; index += 1) {
    const json = renderedRows.get(shape, stamps[index]!) as ItemJson<'listTransactions'> | undefined;
    if (json === undefined) missing.push(stamps[index]!);
    items[index] = json;
  }
  if (missing.length === 0) return items as ItemJson<'listTransactions'>[];
  const rows = new Map((await transactionsAt(runtime.deps, account, missing)).map((row) => [row.stamp, row]));
  for (const [index, stamp] of stamps.entries()) {
    if (items[index] !== undefined) continue;
    // The page's stamps and these rows are two reads: a row changed or gone between them is not found at its stamp.
    const row = rows.get(stamp);
    if (!row) return undefined;
    const json = await apiItemJson(view, runtime, 'listTransactions', presentTransaction(base, row));
    renderedRows.set(shape, stamp, json);
    items[index] = json;
  }
  return items as ItemJson<'listTransactions'>[];
}

export const transactionHandlers = {
  listTransactions: {
    reachesInstitution: true,
    enrollmentStatus: true,
    handle: async (c, runtime) => {
      const account = await pathAccount(c, runtime, { reachesInstitution: true });
      await runtime.deps.institutions.admitTransactions(runtime.deps.store, c.get('enrollment'));
      const filter = transactionFilter(c.get('params'));
      if (isJoinedPage(filter)) {
        const items = await joinedPage(viewOf(c), runtime, account, filter);
        if (items) {
          await noteTransactionsFetched(runtime.deps, c.get('enrollment'), account);
          return answer.items(c, 'listTransactions', items);
        }
      }
      const pages = await openTransactionList(runtime.deps, account, filter);
      await noteTransactionsFetched(runtime.deps, c.get('enrollment'), account);
      const base = c.get('base');
      if (isJoinedPage(filter)) {
        const page = [];
        for await (const rows of pages) for (const row of rows) page.push(presentTransaction(base, row));
        return answer.json(c, runtime, 'listTransactions', 200, page);
      }
      return answer.pages(c, runtime, 'listTransactions', pages, (row) => presentTransaction(base, row));
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
