// Accounts as the token's enrollment sees them: lookups with the closed / removed /
// disconnected rules applied, removal, and the sandbox's closing.
import type { AccountRow, EnrollmentRow } from '../storage/store.ts';
import { enrollmentNow } from './clock.ts';
import { type Deps, transactFor } from './context.ts';
import { ApiError, accountClosed, enrollmentDisconnected, notFound } from './errors.ts';

export interface AccountAccess {
  /** The request reaches the institution (details, balances, transactions, payments). */
  reachesInstitution?: boolean;
  /** Closed accounts answer 410 unless this is set. */
  allowClosed?: boolean;
}

export function listAccounts(deps: Deps, enrollment: EnrollmentRow): Promise<AccountRow[]> {
  return deps.store.accounts.listByEnrollment(enrollment.id);
}

/** The account, when this enrollment still has access to it; a token never reaches another enrollment's accounts. */
export async function accountFor(deps: Deps, enrollment: EnrollmentRow, id: string, access: AccountAccess = {}): Promise<AccountRow> {
  return accessibleAccount(deps, enrollment, id, await deps.store.accounts.get(enrollment.id, id), access);
}

/** `accountFor` on the row already read (or kept) for this enrollment and id. */
export function accessibleAccount(
  deps: Deps,
  enrollment: EnrollmentRow,
  id: string,
  account: AccountRow | undefined,
  access: AccountAccess = {},
): AccountRow {
  if (!account || account.removed_at !== null) throw notFound(`No account ${id} is accessible with this access token.`);
  if (account.status === 'closed' && !access.allowClosed) throw accountClosed(account.closed_reason);
  if (access.reachesInstitution && enrollment.status === 'disconnected') throw enrollmentDisconnected(enrollment.status_reason);
  if (access.reachesInstitution) deps.institutions.checkReachable(enrollment);
  return account;
}

/** DELETE /accounts/{id}: the application's authorization for this account ends. */
export async function removeAccount(deps: Deps, enrollment: EnrollmentRow, account: AccountRow): Promise<void> {
  await transactFor(deps, enrollment.id, async (tx) => {
    await tx.accounts.update(account.id, { removed_at: enrollmentNow(deps.now, enrollment) });
  });
}

/** Account details, once the account number is verified. Credit cards have none. */
export function detailsOf(account: AccountRow): AccountRow {
  if (account.type === 'credit') throw notFound('Credit card accounts have no account details (their links have no details).');
  if (account.verification === 'pending') {
    throw new ApiError(
      404,
      'account_number_verification_pending',
      'The account number is being verified by microdeposit; details are available once the verification completes.',
    );
  }
  if (account.verification === 'expired') {
    throw new ApiError(
      404,
      'account_number_verification_expired',
      'The microdeposit verification was not completed within 7 days; the user must verify the account again.',
    );
  }
  return account;
}

export async function closeAccount(deps: Deps, account: AccountRow, reason: string | null): Promise<AccountRow> {
  return transactFor(deps, account.enrollment_id, async (tx) => {
    await tx.accounts.update(account.id, { status: 'closed', closed_reason: reason });
    return (await tx.accounts.get(account.enrollment_id, account.id))!;
  });
}
