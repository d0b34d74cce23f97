// MFA challenges. A payee or payment that needs the user's approval answers `{connect_token}` and waits: the token is
// stored with its request (its enrollment, account, operation, hash and Idempotency-Key). The user approves it in the
// enrollment widget (or a backend through the sandbox control API); the same request with the same key and body then
// takes effect once (idempotency.ts). A token not completed within its lifetime, on its enrollment's sandbox clock,
// is expired: the request then gets a new challenge.
import type { ConnectOperation, ConnectTokenRow, EnrollmentRow, Repos } from '../storage/store.ts';
import { enrollmentNow } from './clock.ts';
import { type Deps, transactUnshown } from './context.ts';
import { ApiError } from './errors.ts';
import { hashToken, newConnectToken } from './ids.ts';

/** How long a challenge waits for its approval and retry, on the enrollment's sandbox clock. */
export const CONNECT_TOKEN_LIFETIME_MS = 30 * 60_000;

export type ConnectTokenStatus = 'pending' | 'approved' | 'completed' | 'expired';

export interface MfaChallenge {
  connect_token: string;
}

/** A request that needs the user's approval before it takes effect. */
export interface ApprovalNeeded {
  operation: ConnectOperation;
  /** The body as validated, shown to the user who approves. */
  request: unknown;
}

/** The status at `now` (the enrollment's clock): a token not completed by its expiry is expired. */
export function connectTokenStatus(row: ConnectTokenRow, now: number): ConnectTokenStatus {
  if (row.status === 'completed') return 'completed';
  return now >= row.expires_at ? 'expired' : row.status;
}

export interface IssuedChallenge {
  answer: MfaChallenge;
  row: ConnectTokenRow;
}

/** A new challenge for a keyed request of the enrollment, issued at `now` (its clock); the caller writes `row`. */
export function newChallenge(
  enrollment: EnrollmentRow,
  request: { account: string; key: string | undefined; hash: string },
  approval: ApprovalNeeded,
  now: number,
): IssuedChallenge {
  const token = newConnectToken();
  return {
    answer: { connect_token: token },
    row: {
      token_hash: hashToken(token),
      application_id: enrollment.application_id,
      enrollment_id: enrollment.id,
      account_id: request.account,
      operation: approval.operation,
      request_hash: request.hash,
      request: JSON.stringify(approval.request),
      idempotency_key: request.key ?? null,
      status: 'pending',
      issued_at: now,
      expires_at: now + CONNECT_TOKEN_LIFETIME_MS,
      approved_at: null,
      completed_at: null,
    },
  };
}

export const connectTokenNotFound = (): ApiError =>
  new ApiError(404, 'connect_token.not_found', 'No such connect_token for this application: use the token a payee or payment of it answered with.');

export interface FoundConnectToken {
  row: ConnectTokenRow;
  /** The token's enrollment, whose sandbox clock decides its expiry. */
  enrollment: EnrollmentRow;
  /** The status on that clock now. */
  status: ConnectTokenStatus;
}

/** The application's connect token; another application's, or none, is not found. */
export async function findConnectToken(deps: Deps, applicationId: string, token: string, tx: Repos = deps.store): Promise<FoundConnectToken> {
  const row = await tx.connectTokens.get(hashToken(token));
  if (!row || row.application_id !== applicationId) throw connectTokenNotFound();
  const enrollment = await tx.enrollments.get(row.enrollment_id);
  if (!enrollment) throw connectTokenNotFound();
  return { row, enrollment, status: connectTokenStatus(row, enrollmentNow(deps.now, enrollment)) };
}

/** Why a token cannot be approved (or a widget session opened on it), or nothing when it can. */
export function refuseUnapprovable(status: ConnectTokenStatus): void {
  if (status === 'expired') {
    throw new ApiError(
      422,
      'connect_token.expired',
      `The connect_token expired ${CONNECT_TOKEN_LIFETIME_MS / 60_000} minutes after it was issued (on its enrollment's sandbox clock): send the request again for a new one.`,
    );
  }
  if (status === 'completed') {
    throw new ApiError(
      422,
      'connect_token.completed',
      'The connect_token was approved and its request has taken effect: there is nothing left to approve.',
    );
  }
}

/**
 * Approves the token as its user would: the same request with the same Idempotency-Key then takes effect once.
 * Approving an approved token changes nothing. Under the enrollment's lock, so that a retry of the request sees
 * either the approval or none.
 */
export async function approveConnectToken(
  deps: Deps,
  applicationId: string,
  token: string,
  within?: (tx: Repos) => Promise<void>,
): Promise<FoundConnectToken> {
  const { row } = await findConnectToken(deps, applicationId, token);
  return transactUnshown(deps, async (tx) => {
    await within?.(tx);
    const [enrollment, current] = await Promise.all([tx.enrollments.getForUpdate(row.enrollment_id), tx.connectTokens.get(row.token_hash)]);
    if (!enrollment || !current) throw connectTokenNotFound();
    const now = enrollmentNow(deps.now, enrollment);
    const status = connectTokenStatus(current, now);
    refuseUnapprovable(status);
    if (status === 'approved') return { row: current, enrollment, status };
    await tx.connectTokens.update(current.token_hash, { status: 'approved', approved_at: now });
    return { row: { ...current, status: 'approved', approved_at: now }, enrollment, status: 'approved' };
  });
}
