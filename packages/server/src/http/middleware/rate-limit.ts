// A token bucket per caller: 429 rate_limited with Retry-After when it runs dry. The caller is
// the identity authentication establishes (the token's enrollment), or the client address where
// there is none (unauthenticated routes, missing or unknown tokens): varying what authentication
// ignores (the Basic password, a junk header) gets no fresh bucket.
import type { IncomingMessage } from 'node:http';
import type { MiddlewareHandler } from 'hono';
import { rateLimited } from '../../domain/errors.ts';
import type { EnrollmentRow } from '../../storage/store.ts';
import type { AppEnv, Runtime } from '../env.ts';
import type { TokenBuckets } from '../token-buckets.ts';

/** The bucket of an authenticated request: its enrollment's (the one place to change to key on something wider). */
export const enrollmentCaller = (enrollment: Pick<EnrollmentRow, 'id'>): string => `enrollment:${enrollment.id}`;

/** The bucket of a request no token identifies: its client address. */
export const addressCaller = (incoming: IncomingMessage | undefined): string => `address:${incoming?.socket.remoteAddress ?? 'unknown'}`;

/**
 * Requests already counted against their token's enrollment before they reached the app (the page served before
 * it, fast-page.ts, which hands a request on only when it cannot answer it after all): counted once.
 */
export const countedRequests = new WeakSet<IncomingMessage>();

/** Counts one request of `caller`; 429 when its bucket is dry. Does nothing without a limit. */
export function limitRate(buckets: TokenBuckets | undefined, caller: string): void {
  const retryAfter = buckets?.take(caller);
  if (retryAfter !== undefined) throw rateLimited(retryAfter);
}

/** For routes without authentication, and requests no route takes: counted by client address. */
export function rateLimitByAddress(runtime: Runtime): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    limitRate(runtime.rateLimit, addressCaller(c.env?.incoming));
    await next();
  };
}
