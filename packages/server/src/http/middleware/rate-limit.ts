// A token bucket per caller: 429 rate_limited with Retry-After when it runs dry. The caller is
// the identity authentication establishes (the token's enrollment), or the client address where
// there is none (unauthenticated routes, missing or unknown tokens): varying what authentication
// ignores (the Basic password, a junk header) gets no fresh bucket.
import type { IncomingMessage } from 'node:http';
import type { MiddlewareHandler } from 'hono';
import { rateLimited } from '../../domain/errors.ts';
import type { EnrollmentRow } from '../../storage/store.ts';
import type { AppEnv, Runtime } from '../env.ts';

export interface RateLimit {
  /** Sustained requests per second. */
  perSecond: number;
  /** Requests allowed in a burst. */
  burst: number;
}

const MAX_CALLERS = 10_000;

/** The bucket of an authenticated request: its enrollment's (the one place to change to key on something wider). */
export const enrollmentCaller = (enrollment: Pick<EnrollmentRow, 'id'>): string => `enrollment:${enrollment.id}`;

/** The bucket of a request no token identifies: its client address. */
export const addressCaller = (incoming: IncomingMessage | undefined): string => `address:${incoming?.socket.remoteAddress ?? 'unknown'}`;

export class TokenBuckets {
  private readonly buckets = new Map<string, { tokens: number; at: number }>();
  private readonly limit: RateLimit;
  private readonly now: () => number;

  constructor(limit: RateLimit, now: () => number = Date.now) {
    this.limit = limit;
    this.now = now;
  }

  /** Takes one token: undefined when granted, else the seconds to wait (nothing is taken). */
  take(caller: string): number | undefined {
    const { perSecond, burst } = this.limit;
    const at = this.now();
    const bucket = this.buckets.get(caller) ?? { tokens: burst, at };
    bucket.tokens = Math.min(burst, bucket.tokens + ((at - bucket.at) / 1000) * perSecond);
    bucket.at = at;
    this.buckets.set(caller, bucket);
    if (this.buckets.size > MAX_CALLERS) this.buckets.delete(this.buckets.keys().next().value!);
    if (bucket.tokens < 1) return Math.max(1, Math.ceil((1 - bucket.tokens) / perSecond));
    bucket.tokens -= 1;
    return undefined;
  }
}

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
