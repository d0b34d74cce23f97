// Transaction reads: keyset pages streamed in chunks (a page deep in a huge history costs what
// the first does), and the microdeposit check that fetching transactions triggers.
import type { AccountRow, EnrollmentRow, TransactionCursor, TransactionQuery, TransactionRow } from '../storage/store.ts';
import { enrollmentNow } from './clock.ts';
import { type Deps, transactFor } from './context.ts';
import { notFound, unprocessable } from './errors.ts';
import { keysetPages } from './paging.ts';

export interface TransactionFilter {
  count?: number | undefined;
  fromId?: string | undefined;
  startDate?: string | undefined;
  endDate?: string | undefined;
}

/** The filter's dates checked and its `from_id` resolved to a position. */
async function startOf(deps: Deps, account: AccountRow, filter: TransactionFilter): Promise<TransactionCursor | undefined> {
  if (filter.startDate && filter.endDate && filter.startDate > filter.endDate) {
    throw unprocessable({ start_date: ['must not be after end_date'] });
  }
  if (filter.fromId === undefined) return undefined;
  const from = await deps.store.transactions.get(account.id, filter.fromId);
  if (!from) throw unprocessable({ from_id: ['is not a transaction of this account'] });
  return { date: from.date, seq: from.seq };
}

const queryOf = (filter: TransactionFilter, before: TransactionCursor | undefined, limit: number): TransactionQuery => ({
  ...(before ? { before } : {}),
  ...(filter.startDate ? { startDate: filter.startDate } : {}),
  ...(filter.endDate ? { endDate: filter.endDate } : {}),
  limit,
});

/**
 * The list in keyset pages, newest first. Resolves the cursor up front, so a bad `from_id` fails before anything is
 * streamed.
 */
export async function openTransactionList(deps: Deps, account: AccountRow, filter: TransactionFilter): Promise<AsyncIterable<TransactionRow[]>> {
  const cursor = await startOf(deps, account, filter);
  const { store } = deps;
  return keysetPages(
    (before, limit) => store.transactions.page(account.id, queryOf(filter, before, limit)),
    (row): TransactionCursor => ({ date: row.date, seq: row.seq }),
    { from: cursor, count: filter.count },
  );
}

/** The stamps of one page of `count` transactions (what `openTransactionList` lists), in one read. */
export async function transactionPageStamps(deps: Deps, account: AccountRow, filter: TransactionFilter & { count: number }): Promise<number[]> {
  const cursor = await startOf(deps, account, filter);
  return deps.store.transactions.pageStamps(account.id, queryOf(filter, cursor, filter.count));
}

/** The account's transactions still at these stamps. */
export function transactionsAt(deps: Deps, account: AccountRow, stamps: readonly number[]): Promise<TransactionRow[]> {
  return deps.store.transactions.getByStamps(account.id, stamps);
}

export async function transactionOf(deps: Deps, account: AccountRow, id: string): Promise<TransactionRow> {
  const row = await deps.store.transactions.get(account.id, id);
  if (!row) throw notFound(`No transaction ${id} in account ${account.id}.`);
  return row;
}

/**
 * The sandbox's microdeposit check: once the `Success` account's transactions are fetched, its
 * microdeposits have been seen and the verification completes.
 */
export async function noteTransactionsFetched(deps: Deps, enrollment: EnrollmentRow, account: AccountRow): Promise<void> {
  if (account.verification !== 'pending' || account.verification_outcome !== 'success') return;
  await transactFor(deps, enrollment.id, async (tx, emit) => {
    await tx.enrollments.getForUpdate(enrollment.id);
    const current = await tx.accounts.get(enrollment.id, account.id);
    if (current?.verification !== 'pending') return;
    await tx.accounts.update(account.id, { verification: 'verified', verification_expires_at: null });
    await emit({
      type: 'account.number_verification.processed',
      payload: { enrollment_id: enrollment.id, account_id: account.id, status: 'completed' },
      enrollmentId: enrollment.id,
      applicationId: enrollment.application_id,
      at: enrollmentNow(deps.now, enrollment),
    });
  });
}
