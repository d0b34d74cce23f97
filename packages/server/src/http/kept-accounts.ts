// The account rows of the requests that name one (its path's, checked for access), kept per process while current
// (kept-reads.ts). A row shows its own account's activity (its balances): a payment from that account moves its
// revision, one from another account of the enrollment does not.
import type { IncomingMessage } from 'node:http';
import { type AccountAccess, accessibleAccount } from '../domain/accounts.ts';
import type { AccountRow, EnrollmentRow, Store } from '../storage/store.ts';
import type { Runtime } from './env.ts';
import { KeptReads } from './kept-reads.ts';

/** Accounts kept at most: under a kilobyte each. */
const MAX_ACCOUNTS = 2_000;

export function keptAccounts(store: Store): KeptReads<AccountRow> {
  return new KeptReads<AccountRow>(store, MAX_ACCOUNTS, (account) => ({ enrollment: account.enrollment_id, activity: { account: account.id } }));
}

/** `accountFor` with the row kept while current: keyed by enrollment too, since a row is read for one enrollment. */
export async function keptAccountFor(
  runtime: Runtime,
  enrollment: EnrollmentRow,
  id: string,
  incoming: IncomingMessage | undefined,
  access: AccountAccess,
): Promise<AccountRow> {
  const { deps, keptAccounts } = runtime;
  const row = await keptAccounts.find(`${enrollment.id} ${id}`, incoming, () => deps.store.accounts.get(enrollment.id, id));
  return accessibleAccount(deps, enrollment, id, row, access);
}
