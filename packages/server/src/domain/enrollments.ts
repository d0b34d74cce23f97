// Enrollments: creation (what the connect widget would do), token authentication, revocation.
import { creditLimit, openingLedger } from '../sandbox/activity.ts';
import { availableOf, Simulation } from '../sandbox/bank.ts';
import { findInstitution, institution as institutionById } from '../sandbox/institutions.ts';
import { scenarioFor, SANDBOX_PASSWORD, type AccountPlan } from '../sandbox/users.ts';
import { seeded } from './prng.ts';
import type { AccountRow, EnrollmentRow, Mode } from '../storage/store.ts';
import { addDays, DAY_MS, dayOf } from './clock.ts';
import { transact, type Deps } from './context.ts';
import { ApiError, forbidden, unprocessable } from './errors.ts';
import { hashToken, newId, newLiveToken, newSandboxToken } from './ids.ts';
import { runLifecycle } from './lifecycle.ts';

/** Days of history a new enrollment starts with. */
export const HISTORY_DAYS = 120;
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
  mode?: Mode;
}

export async function createEnrollment(deps: Deps, input: CreateEnrollmentInput): Promise<CreatedEnrollment> {
  const scenario = scenarioFor(input.username);
  if (!scenario || input.password !== SANDBOX_PASSWORD) {
    throw new ApiError(401, 'credentials_invalid', 'The username or password is incorrect.');
  }
  if (input.institution !== undefined && !findInstitution(input.institution)) {
    throw unprocessable({ institution: ['is not a known institution id (see GET /institutions)'] });
  }
  const bank = institutionById(input.institution ?? scenario.defaultInstitution);
  const mode = input.mode ?? 'sandbox';
  const token = mode === 'live' ? newLiveToken() : newSandboxToken();
  const now = deps.now();
  const today = dayOf(now);
  const historyDays = scenario.historySize ? Math.min(365, scenario.historySize) : HISTORY_DAYS;
  const historyPerDay = scenario.historySize ? Math.ceil(scenario.historySize / historyDays) : 0;

  const enrollment: EnrollmentRow = {
    id: newId('enr'),
    token_hash: hashToken(token),
    mode,
    username: input.username,
    institution_id: bank.id,
    status: 'healthy',
    status_reason: null,
    disconnect_on_use: scenario.disconnectOnUse,
    disconnect_on_use_reason: scenario.disconnectReason,
    clock_offset_ms: 0,
    revoked_at: null,
    created_at: now,
    simulated_through: today,
    next_due_at: null,
    refresh_count: 0,
  };

  return transact(deps, async (tx, emit) => {
    await tx.enrollments.insert(enrollment);
    const rows = scenario.accounts.map((plan, position) => accountRow(enrollment, plan, position, bank.id, now));
    for (const row of rows) await tx.accounts.insert(row);

    const simulation = await Simulation.start(
      tx,
      { username: input.username, institution_id: bank.id, created_day: today },
      rows,
      { today, now, enrichDelayMs: deps.enrichDelayMs },
      false,
    );
    await simulation.run(addDays(today, -historyDays - 1), addDays(today, -1), historyPerDay);
    for (const plan of scenario.accounts) if (plan.microdeposit === 'success') await simulation.microdeposits(plan.key);
    await simulation.run(addDays(today, -1), today, historyPerDay);
    await simulation.finish();

    for (const [position, plan] of scenario.accounts.entries()) {
      if (plan.closed) await tx.accounts.update(rows[position]!.id, { status: 'closed' });
    }
    await runLifecycle(deps, tx, emit, enrollment, now);
    return { token, enrollment: (await tx.enrollments.get(enrollment.id))!, accounts: await tx.accounts.listByEnrollment(enrollment.id) };
  });
}

function accountRow(enrollment: EnrollmentRow, plan: AccountPlan, position: number, institutionId: string, now: number): AccountRow {
  const bank = institutionById(institutionId);
  const rng = seeded(`${enrollment.username}/account/${plan.key}`);
  const credit = plan.type === 'credit';
  const accountNumber = credit
    ? `4${Array.from({ length: 15 }, () => rng.int(0, 9)).join('')}`
    : Array.from({ length: 12 }, () => rng.int(0, 9)).join('');
  const ledger = openingLedger(enrollment.username, plan.key);
  const limit = credit ? creditLimit(enrollment.username) : null;
  const row: AccountRow = {
    id: newId('acc'),
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

/** The enrollment a token belongs to; 403 when unknown or revoked. */
export async function enrollmentForToken(deps: Deps, token: string): Promise<EnrollmentRow> {
  const enrollment = await deps.store.enrollments.getByTokenHash(hashToken(token));
  if (!enrollment) throw forbidden('The access token is not valid.');
  if (enrollment.revoked_at !== null) throw forbidden('The access token was revoked.');
  return enrollment;
}

/** DELETE /accounts: the application loses every account of the enrollment; the token stops working. */
export async function revokeEnrollment(deps: Deps, enrollment: EnrollmentRow): Promise<void> {
  await transact(deps, async (tx) => {
    await tx.enrollments.update(enrollment.id, { revoked_at: deps.now() });
  });
}
