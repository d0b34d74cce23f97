// The enrollment's state machines, driven by its clock: the daily refresh (new activity,
// pending transactions posting), enrichment completing, microdeposit verification expiring,
// and the sandbox users that disconnect at their first data request.
import type { EnrollmentRow, Repos } from '../storage/store.ts';
import { addDays, dayOf, enrollmentNow, startOfDay } from './clock.ts';
import { type Deps, type Emit, transactFor } from './context.ts';
import { ApiError, enrollmentDisconnected, unprocessable } from './errors.ts';

export interface LifecycleOptions {
  /** An explicit refresh: also look for new activity on a day already simulated. */
  refresh?: boolean;
}

export const createdDay = (enrollment: EnrollmentRow): string => dayOf(enrollment.created_at);

/** Runs every state machine of the enrollment up to `now` (its clock). Returns the number of new transactions. */
export async function runLifecycle(
  deps: Deps,
  tx: Repos,
  emit: Emit,
  enrollment: EnrollmentRow,
  now: number,
  options: LifecycleOptions = {},
): Promise<number> {
  const accounts = await tx.accounts.listByEnrollment(enrollment.id);
  const today = dayOf(now);
  let newTransactions = 0;
  const patch: Partial<EnrollmentRow> = {};

  // The bank is out of reach while the enrollment is disconnected.
  if (enrollment.status === 'healthy' && (today > enrollment.simulated_through || options.refresh)) {
    const simulation = await deps.institutions.activity(
      tx,
      { username: enrollment.username, institution_id: enrollment.institution_id, created_day: createdDay(enrollment) },
      accounts,
      { today, now, enrichDelayMs: deps.enrichDelayMs },
    );
    if (today > enrollment.simulated_through) {
      await simulation.run(enrollment.simulated_through, today);
      patch.simulated_through = today;
    } else {
      await simulation.refreshExtra(enrollment.refresh_count);
    }
    if (options.refresh) patch.refresh_count = enrollment.refresh_count + 1;
    const result = await simulation.finish();
    newTransactions = result.createdCount;
    if (result.created && result.created.length > 0) {
      await emit({
        type: 'transactions.processed',
        payload: {
          enrollment_id: enrollment.id,
          transactions: result.created.map(deps.eventTransaction),
        },
        enrollmentId: enrollment.id,
        applicationId: enrollment.application_id,
        at: now,
      });
    }
  }

  let nextDue = startOfDay(addDays(today, 1));
  for (const account of accounts) {
    for (const txn of await tx.transactions.listEnrichmentDue(account.id, now)) {
      await tx.transactions.update(txn.id, { processing_status: 'complete', enrich_at: null });
    }
    const nextEnrichment = await tx.transactions.nextEnrichmentAt(account.id);
    if (nextEnrichment !== null) nextDue = Math.min(nextDue, nextEnrichment);

    if (account.verification === 'pending' && account.verification_expires_at !== null) {
      if (account.verification_expires_at <= now) {
        await tx.accounts.update(account.id, { verification: 'expired' });
        await emit({
          type: 'account.number_verification.processed',
          payload: { enrollment_id: enrollment.id, account_id: account.id, status: 'expired' },
          enrollmentId: enrollment.id,
          applicationId: enrollment.application_id,
          at: now,
        });
      } else {
        nextDue = Math.min(nextDue, account.verification_expires_at);
      }
    }
  }
  patch.next_due_at = nextDue;
  await tx.enrollments.update(enrollment.id, patch);
  return newTransactions;
}

/**
 * Brings the enrollment up to date before a request reads it. Cheap when nothing is due.
 * A request that reaches the institution triggers the disconnect-on-use users.
 */
/** Whether `syncEnrollment` has work to do (else it returns the enrollment as it is). */
export function needsSync(deps: Deps, enrollment: EnrollmentRow, reachesInstitution: boolean): boolean {
  const disconnectNow = reachesInstitution && enrollment.disconnect_on_use;
  return disconnectNow || (enrollment.next_due_at !== null && enrollmentNow(deps.now, enrollment) >= enrollment.next_due_at);
}

export async function syncEnrollment(deps: Deps, enrollment: EnrollmentRow, reachesInstitution: boolean): Promise<EnrollmentRow> {
  if (!needsSync(deps, enrollment, reachesInstitution)) return enrollment;
  return transactFor(deps, enrollment.id, async (tx, emit) => {
    let current = (await tx.enrollments.getForUpdate(enrollment.id))!;
    const currentNow = enrollmentNow(deps.now, current);
    if (reachesInstitution && current.disconnect_on_use) {
      await disconnect(tx, emit, current, current.disconnect_on_use_reason, currentNow);
      current = (await tx.enrollments.get(enrollment.id))!;
    }
    if (current.next_due_at !== null && currentNow >= current.next_due_at) {
      await runLifecycle(deps, tx, emit, current, currentNow);
      current = (await tx.enrollments.get(enrollment.id))!;
    }
    return current;
  });
}

/** Disconnects the enrollment as its institution would; already disconnected, only the reason changes (no second event). */
export async function disconnectEnrollment(deps: Deps, enrollmentId: string, reason: string | null): Promise<EnrollmentRow> {
  return transactFor(deps, enrollmentId, async (tx, emit) => {
    const current = (await tx.enrollments.getForUpdate(enrollmentId))!;
    if (current.status === 'disconnected') {
      await tx.enrollments.update(current.id, { status_reason: reason });
    } else {
      await disconnect(tx, emit, current, reason, enrollmentNow(deps.now, current));
    }
    return (await tx.enrollments.get(current.id))!;
  });
}

export const notDisconnected = (): ApiError =>
  new ApiError(422, 'enrollment.not_disconnected', 'The enrollment is healthy: only a disconnected enrollment can be reconnected.');

/**
 * The user signed in again: the enrollment is healthy, the days it missed are refreshed, and `enrollment.reconnected`
 * is sent. Its token stays the same. A healthy enrollment is refused, and nothing changes.
 */
export async function reconnectEnrollment(deps: Deps, enrollmentId: string, within?: (tx: Repos) => Promise<void>): Promise<EnrollmentRow> {
  return transactFor(deps, enrollmentId, async (tx, emit) => {
    await within?.(tx);
    const current = (await tx.enrollments.getForUpdate(enrollmentId))!;
    if (current.status !== 'disconnected') throw notDisconnected();
    const now = enrollmentNow(deps.now, current);
    const healthy = { ...current, status: 'healthy' as const, status_reason: null };
    await tx.enrollments.update(current.id, { status: healthy.status, status_reason: null });
    await emit({
      type: 'enrollment.reconnected',
      payload: { enrollment_id: current.id },
      enrollmentId: current.id,
      applicationId: current.application_id,
      at: now,
    });
    await runLifecycle(deps, tx, emit, healthy, now);
    return (await tx.enrollments.get(current.id))!;
  });
}

/** An explicit refresh: the institution is asked for new activity now. Returns the number of new transactions. */
export async function refreshEnrollment(deps: Deps, enrollment: EnrollmentRow): Promise<number> {
  if (enrollment.status === 'disconnected') throw enrollmentDisconnected(enrollment.status_reason);
  return transactFor(deps, enrollment.id, async (tx, emit) => {
    const current = (await tx.enrollments.getForUpdate(enrollment.id))!;
    return runLifecycle(deps, tx, emit, current, enrollmentNow(deps.now, current), { refresh: true });
  });
}

/** Largest clock offset the sandbox keeps (100 years). */
const MAX_OFFSET_SECONDS = 3_153_600_000;

/** Moves the enrollment's clock forward; everything that fell due in the span happens now, in order. */
export async function advanceClock(deps: Deps, enrollmentId: string, advanceMs: number): Promise<EnrollmentRow> {
  return transactFor(deps, enrollmentId, async (tx, emit) => {
    const current = (await tx.enrollments.getForUpdate(enrollmentId))!;
    const offset = current.clock_offset_ms + advanceMs;
    if (offset / 1000 > MAX_OFFSET_SECONDS) throw unprocessable({ days: ['would move the clock more than 100 years ahead'] });
    await tx.enrollments.update(current.id, { clock_offset_ms: offset });
    const moved = { ...current, clock_offset_ms: offset };
    await runLifecycle(deps, tx, emit, moved, enrollmentNow(deps.now, moved));
    return (await tx.enrollments.get(current.id))!;
  });
}

export async function disconnect(tx: Repos, emit: Emit, enrollment: EnrollmentRow, reason: string | null, now: number): Promise<void> {
  await tx.enrollments.update(enrollment.id, {
    status: 'disconnected',
    status_reason: reason,
    disconnect_on_use: false,
    disconnect_on_use_reason: null,
  });
  await emit({
    type: 'enrollment.disconnected',
    payload: { enrollment_id: enrollment.id, reason: disconnectedStatus(reason) },
    enrollmentId: enrollment.id,
    applicationId: enrollment.application_id,
    at: now,
  });
}

/** Header value and first tokens of the error code: `healthy`, `disconnected[.<reason>]`. */
export function enrollmentStatus(enrollment: Pick<EnrollmentRow, 'status' | 'status_reason'>): string {
  if (enrollment.status === 'healthy') return 'healthy';
  return disconnectedStatus(enrollment.status_reason);
}

/** The whole status string of a disconnection: `disconnected`, or `disconnected.<reason>`. */
export function disconnectedStatus(reason: string | null): string {
  return reason ? `disconnected.${reason}` : 'disconnected';
}
