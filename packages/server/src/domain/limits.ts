// What one client address or one application may create in a hosted sandbox. Counted in the
// database, so every process behind a load balancer counts the same rows.
import type { Deps } from './context.ts';
import { ApiError } from './errors.ts';

export interface SandboxLimits {
  /** Applications one client address may create per hour; 0 for no limit. */
  applicationsPerClient: number;
  /** Enrollments one client address may create per hour; 0 for no limit. */
  enrollmentsPerClient: number;
  /** Enrollments one application may hold; 0 for no limit. */
  enrollmentsPerApplication: number;
}

export const NO_LIMITS: SandboxLimits = { applicationsPerClient: 0, enrollmentsPerClient: 0, enrollmentsPerApplication: 0 };
/** The defaults of a hosted sandbox. */
export const HOSTED_LIMITS: SandboxLimits = { applicationsPerClient: 10, enrollmentsPerClient: 100, enrollmentsPerApplication: 1000 };

const WINDOW_MS = 3_600_000;

function perClientExceeded(what: string, limit: number): ApiError {
  return new ApiError(
    429,
    `rate_limited.${what}_per_client`,
    `This client address created ${limit} ${what} in the last hour, the most this sandbox allows; retry later.`,
    undefined,
    { 'Retry-After': String(WINDOW_MS / 1000) },
  );
}

export async function checkApplicationLimits(deps: Deps, limits: SandboxLimits, clientAddress: string | null): Promise<void> {
  if (limits.applicationsPerClient > 0 && clientAddress !== null) {
    const made = await deps.store.applications.countByClientSince(clientAddress, deps.now() - WINDOW_MS);
    if (made >= limits.applicationsPerClient) throw perClientExceeded('applications', limits.applicationsPerClient);
  }
}

export async function checkEnrollmentLimits(deps: Deps, limits: SandboxLimits, applicationId: string, clientAddress: string | null): Promise<void> {
  if (limits.enrollmentsPerClient > 0 && clientAddress !== null) {
    const made = await deps.store.enrollments.countByClientSince(clientAddress, deps.now() - WINDOW_MS);
    if (made >= limits.enrollmentsPerClient) throw perClientExceeded('enrollments', limits.enrollmentsPerClient);
  }
  if (limits.enrollmentsPerApplication > 0) {
    const held = await deps.store.enrollments.countByApplication(applicationId);
    if (held >= limits.enrollmentsPerApplication) {
      throw new ApiError(
        422,
        'application.enrollment_limit',
        `The application holds ${limits.enrollmentsPerApplication} enrollments, the most this sandbox allows; create another application.`,
      );
    }
  }
}
