// The sandbox users that provoke the documented failures on purpose, so that an integration's
// retry and error paths can be tested: rate limits (429), a first transactions request that
// times out (504), and an institution that fails with no fallback (502).
import { ApiError, rateLimited } from '../domain/errors.ts';
import type { EnrollmentRow, Store } from '../storage/store.ts';
import { scenarioFor } from './users.ts';

/** Seconds a rate-limited or timed-out request is told to wait before retrying. */
export const RETRY_AFTER_SECONDS = 1;

type Counter = 'rate_limited_requests' | 'transactions_timeouts';

/** Takes one failure off the enrollment's counter; true when this request is the one to fail. */
async function takeFailure(store: Store, enrollment: EnrollmentRow, counter: Counter): Promise<boolean> {
  if (enrollment[counter] <= 0) return false;
  return store.transaction(async (tx) => {
    const current = await tx.enrollments.getForUpdate(enrollment.id);
    if (!current || current[counter] <= 0) return false;
    await tx.enrollments.update(enrollment.id, { [counter]: current[counter] - 1 });
    return true;
  });
}

/** No failure is left to take: every request of the enrollment is admitted without a write. */
export const failsNothing = (enrollment: EnrollmentRow): boolean => enrollment.rate_limited_requests <= 0 && enrollment.transactions_timeouts <= 0;

/** `rate_limited.<n>`: the token's first n requests answer 429 rate_limited with Retry-After. */
export async function applySandboxRateLimit(store: Store, enrollment: EnrollmentRow): Promise<void> {
  if (await takeFailure(store, enrollment, 'rate_limited_requests')) throw rateLimited(RETRY_AFTER_SECONDS);
}

/** `timeout.first_transactions`: the first transactions request answers 504; the retry is served. */
export async function applyTransactionsTimeout(store: Store, enrollment: EnrollmentRow): Promise<void> {
  if (await takeFailure(store, enrollment, 'transactions_timeouts')) {
    throw new ApiError(504, 'gateway_timeout', 'The institution did not answer in time (a very large history); retry in a few seconds.', undefined, {
      'Retry-After': String(RETRY_AFTER_SECONDS),
    });
  }
}

/** `institution.down`: every request that needs the institution answers 502 bad_gateway. */
export function checkInstitutionUp(enrollment: EnrollmentRow): void {
  if (scenarioFor(enrollment.username)?.institutionDown) {
    throw new ApiError(502, 'bad_gateway', 'The institution failed to answer and there is no fallback; retry later.');
  }
}
