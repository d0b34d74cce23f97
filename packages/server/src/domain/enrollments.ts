// Enrollments: creation (what the connect widget would do), token authentication, revocation.
import { type AccountRow, type ApplicationRow, DEFAULT_APPLICATION_ID, type EnrollmentRow, type Mode, type Repos } from '../storage/store.ts';
import { availableOf } from './balances.ts';
import { addDays, DAY_MS, dayOf } from './clock.ts';
import { type Deps, transactFor } from './context.ts';
import { ApiError, forbidden, unprocessable } from './errors.ts';
import { hashToken, newId, newLiveToken, newSandboxToken, userIdFor } from './ids.ts';
import type { AccountPlan, Activity, Login, OpeningAccount } from './institution.ts';
import { findInstitution, type Institution, institution as institutionById } from './institutions.ts';
import { HISTORY_DAYS, runLifecycle } from './lifecycle.ts';

/**
 * Rows of a large history written per transaction: each is a stretch of the event loop that other requests wait
 * behind, and a read may wait behind several. With history.1000000 created under the bench's reads, 250 rows a commit
 * (about 18 ms of work) left them a p99 of 98 to 110 ms, 100 rows 56 ms; each commit costs a little, so the history
 * is written about a tenth slower (8,637 rows/s against 9,830).
 */
export const HISTORY_BATCH_ROWS = 100;
const MICRODEPOSIT_EXPIRY_MS = 7 * DAY_MS;

export interface CreatedEnrollment {
  token: string;
  enrollment: EnrollmentRow;
  accounts: AccountRow[];
}

export interface CreateEnrollmentInput {
  username: string;
  password: string;
  institution?: string | undefined;
  /** The one-time code of a user whose sign-in asks for one. */
  mfaCode?: string | undefined;
  /** The sign-in (and its one-time code) done already, by the enrollment widget's steps. */
  signedIn?: SignedIn;
  mode?: Mode;
  /** The application it belongs to (default: the default application). */
  applicationId?: string;
  /** Who asked for it, counted by the limits per client address. */
  clientAddress?: string | null;
  /** The ids shown before it was made (the widget's account selection): see `planEnrollment`. */
  planned?: PlannedEnrollment;
  /** Only these of its accounts are granted to the token (the others are made removed); default all. */
  granted?: readonly string[];
  /** Runs first in the transaction that makes the enrollment usable: what it throws makes nothing usable. */
  within?: (tx: Repos) => Promise<void>;
}

/** Where the user signed in, and what the login found. */
export interface SignedIn {
  login: Login;
  bank: Institution;
}

/** Signs in as the user at the institution (the login's default one when none is named): 401 as the bank refuses. */
export function signIn(deps: Deps, input: { username: string; password: string; institution?: string | undefined; field?: string }): SignedIn {
  const login = deps.institutions.login(input.username, input.password, deps.maxHistory);
  if (input.institution !== undefined && !findInstitution(input.institution)) {
    throw unprocessable({ [input.field ?? 'institution']: ['is not a known institution id (see GET /institutions)'] });
  }
  return { login, bank: institutionById(input.institution ?? login.defaultInstitution) };
}

/** The one-time code of a user whose sign-in asks for one: 401 when it is missing or wrong. */
export function checkSignInCode(login: Login, code: string | undefined, missing = 'send it as mfa_code'): void {
  if (login.signInCode === null) return;
  if (code === undefined) {
    throw new ApiError(401, 'mfa.code_required', `This user's sign-in asks for a one-time code: ${missing} (${login.signInCode} in the sandbox).`);
  }
  if (code !== login.signInCode) throw new ApiError(401, 'mfa.code_invalid', 'The one-time code is incorrect.');
}

/** An enrollment's ids before it is made, and what its accounts will show (the widget lists them for selection). */
export interface PlannedEnrollment {
  enrollmentId: string;
  accounts: { id: string; name: string; type: AccountPlan['type']; subtype: AccountPlan['subtype']; lastFour: string }[];
}

export function planEnrollment(deps: Deps, username: string, login: Login): PlannedEnrollment {
  return {
    enrollmentId: newId('enr'),
    accounts: login.accounts.map((plan) => ({
      id: newId('acc'),
      name: plan.name,
      type: plan.type,
      subtype: plan.subtype,
      lastFour: deps.institutions.opening(username, plan).accountNumber.slice(-4),
    })),
  };
}

export async function createEnrollment(deps: Deps, input: CreateEnrollmentInput): Promise<CreatedEnrollment> {
  const { login, bank } = input.signedIn ?? signIn(deps, input);
  if (!input.signedIn) checkSignInCode(login, input.mfaCode);
  const mode = input.mode ?? 'sandbox';
  const applicationId = input.applicationId ?? DEFAULT_APPLICATION_ID;
  const token = mode === 'live' ? newLiveToken() : newSandboxToken();
  const now = deps.now();
  const today = dayOf(now);
  const historyDays = login.historySize ? Math.min(365, login.historySize) : HISTORY_DAYS;
  const historyPerDay = login.historySize ? Math.ceil(login.historySize / historyDays) : 0;

  const enrollment: EnrollmentRow = {
    id: input.planned?.enrollmentId ?? newId('enr'),
    application_id: applicationId,
    client_address: input.clientAddress ?? null,
    token_hash: hashToken(token),
    mode,
    username: input.username,
    institution_id: bank.id,
    status: 'healthy',
    status_reason: null,
    disconnect_on_use: login.disconnectOnUse,
    disconnect_on_use_reason: login.disconnectReason,
    clock_offset_ms: 0,
    revoked_at: null,
    created_at: now,
    simulated_through: today,
    next_due_at: null,
    refresh_count: 0,
    rate_limited_requests: login.rateLimitedRequests,
    transactions_timeouts: login.transactionsTimeouts,
    user_id: userIdFor(applicationId, input.username),
    mfa_payments: login.paymentsNeedMfa,
  };

  const rows = login.accounts.map((plan, position) =>
    accountRow(enrollment, plan, deps.institutions.opening(input.username, plan), position, bank.id, now, input.planned?.accounts[position]?.id),
  );
  // One transaction for the usual users; a large history is written in steps of about HISTORY_BATCH_ROWS rows
  // (a day of history.1000000 holds thousands), each its own commit, so that the event loop and the database
  // serve other requests in between.
  const batchRows = deps.historyBatchRows ?? HISTORY_BATCH_ROWS;
  const batched = historyPerDay * historyDays > batchRows;
  const lastHistoryDay = addDays(today, -1);
  let simulatedThrough = addDays(today, -historyDays - 1);

  const begin = async (tx: Repos): Promise<Activity> => {
    // Until its history is whole the enrollment is unusable (revoked), should the process stop half way.
    await tx.enrollments.insert(batched ? { ...enrollment, revoked_at: now } : enrollment);
    for (const row of rows) await tx.accounts.insert(row);
    return deps.institutions.activity(
      tx,
      { username: input.username, institution_id: bank.id, created_day: today },
      rows,
      { today, now, enrichDelayMs: deps.enrichDelayMs },
      false,
    );
  };
  const simulateUntil = async (simulation: Activity, tx: Repos, through: string) => {
    simulation.writeTo(tx);
    await simulation.run(simulatedThrough, through, historyPerDay);
    simulatedThrough = through;
  };

  let started: Activity | undefined;
  if (batched) {
    const simulation = await transactFor(deps, enrollment.id, begin);
    // Up to the day before yesterday: yesterday's card activity may still be pending, and is written with today's.
    const stepsThrough = addDays(lastHistoryDay, -1);
    const steps = simulation.steps(simulatedThrough, stepsThrough, historyPerDay, batchRows);
    let done = false;
    while (!done) {
      // Not synced on its own: the enrollment is unusable until the last, durable commit, which syncs these too.
      done = await deps.store.transaction(
        async (tx) => {
          simulation.writeTo(tx);
          return (await steps.next()).done === true;
        },
        { durable: false, changes: { enrollment: enrollment.id } },
      );
    }
    simulatedThrough = stepsThrough;
    started = simulation;
  }
  return transactFor(deps, enrollment.id, async (tx, emit) => {
    await input.within?.(tx);
    const simulation = started ?? (await begin(tx));
    await simulateUntil(simulation, tx, lastHistoryDay);
    if (batched) await tx.enrollments.update(enrollment.id, { revoked_at: null });
    for (const plan of login.accounts) if (plan.microdeposit === 'success') await simulation.microdeposits(plan.key);
    await simulation.run(lastHistoryDay, today, historyPerDay);
    await simulation.finish();

    for (const [position, plan] of login.accounts.entries()) {
      if (plan.closed) await tx.accounts.update(rows[position]!.id, { status: 'closed' });
    }
    // The accounts the user did not choose are the application's no more than removed ones are.
    for (const row of rows) if (input.granted && !input.granted.includes(row.id)) await tx.accounts.update(row.id, { removed_at: now });
    await runLifecycle(deps, tx, emit, enrollment, now);
    return { token, enrollment: (await tx.enrollments.get(enrollment.id))!, accounts: await tx.accounts.listByEnrollment(enrollment.id) };
  });
}

function accountRow(
  enrollment: EnrollmentRow,
  plan: AccountPlan,
  opening: OpeningAccount,
  position: number,
  institutionId: string,
  now: number,
  id = newId('acc'),
): AccountRow {
  const bank = institutionById(institutionId);
  const credit = plan.type === 'credit';
  const { accountNumber, ledgerCents: ledger, creditLimitCents: limit } = opening;
  const row: AccountRow = {
    id,
    enrollment_id: enrollment.id,
    position,
    name: plan.name,
    type: plan.type,
    subtype: plan.subtype,
    currency: 'USD',
    last_four: accountNumber.slice(-4),
    status: 'open',
    closed_reason: null,
    removed_at: null,
    payments_supported: plan.subtype === 'checking' && bank.products.includes('payments'),
    account_number: accountNumber,
    // Card accounts have no ACH or wire routing.
    routing_ach: credit ? null : bank.routing.ach,
    routing_wire: credit ? null : bank.routing.wire,
    verification: plan.microdeposit ? 'pending' : 'instant',
    verification_outcome: plan.microdeposit,
    verification_expires_at: plan.microdeposit ? now + MICRODEPOSIT_EXPIRY_MS : null,
    ledger_cents: ledger,
    available_cents: 0,
    credit_limit_cents: limit,
    profile: plan.key,
  };
  row.available_cents = availableOf(row, ledger, []);
  return row;
}

/** The enrollment whose token has this hash (`hashToken`), usable or not, and its application; undefined when none. */
export async function findEnrollmentByTokenHash(
  deps: Deps,
  tokenHash: string,
): Promise<{ enrollment: EnrollmentRow; application: ApplicationRow } | undefined> {
  const found = await deps.store.enrollments.getWithApplicationByTokenHash(tokenHash);
  if (!found) return undefined;
  const { enrollment, application } = found;
  if (!application) throw new Error(`application ${enrollment.application_id} is missing`);
  return { enrollment, application };
}

/** The enrollment a token named, if it may be used; 403 when unknown or revoked. */
export function usableEnrollment(enrollment: EnrollmentRow | undefined): EnrollmentRow {
  if (!enrollment) throw forbidden('The access token is not valid.');
  if (enrollment.revoked_at !== null) throw forbidden('The access token was revoked.');
  return enrollment;
}

/** DELETE /accounts: the application loses every account of the enrollment; the token stops working. */
export async function revokeEnrollment(deps: Deps, enrollment: EnrollmentRow): Promise<void> {
  await transactFor(deps, enrollment.id, async (tx) => {
    await tx.enrollments.update(enrollment.id, { revoked_at: deps.now() });
  });
}
