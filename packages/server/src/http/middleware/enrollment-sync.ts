// After authentication: the token's enrollment is brought up to date before the handler reads
// it (its clock's due work, the disconnect-on-use users, the institution's own rate limit).
import type { MiddlewareHandler } from 'hono';
import { syncEnrollment } from '../../domain/lifecycle.ts';
import type { AppEnv, Runtime } from '../env.ts';

export interface SyncOptions {
  /** The control API stays usable while the institution rate-limits the user. */
  sandboxOnly?: boolean;
  /** A data request that reaches the institution (details, balances, transactions): triggers the disconnect-on-use users. */
  reachesInstitution?: boolean;
}

export function syncTokenEnrollment(runtime: Runtime, options: SyncOptions = {}): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const enrollment = c.get('enrollment');
    if (!options.sandboxOnly) await runtime.deps.institutions.admitRequest(runtime.deps.store, enrollment);
    c.set('enrollment', await syncEnrollment(runtime.deps, enrollment, options.reachesInstitution === true));
    await next();
  };
}
