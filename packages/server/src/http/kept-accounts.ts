// The account rows of the requests that name one (its path's, checked for access), kept per process while current
// (kept-reads.ts). A row shows its own account's activity (its balances): a payment from that account moves its
// revision, one from another account of the enrollment does not.
import type { AccountRow, Store } from '../storage/store.ts';
import { KeptReads } from './kept-reads.ts';

/** Accounts kept at most: under a kilobyte each. */
const MAX_ACCOUNTS = 2_000;

export function keptAccounts(store: Store): KeptReads<AccountRow> {
  return new KeptReads<AccountRow>(store, MAX_ACCOUNTS, (account) => ({ enrollment: account.enrollment_id, activity: { account: account.id } }));
}

/** The key of an enrollment's account: a row is read, and so kept, for one enrollment. */
export const accountKey = (enrollmentId: string, accountId: string): string => `${enrollmentId} ${accountId}`;
