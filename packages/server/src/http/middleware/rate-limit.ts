// A token bucket per caller (access token, else client address): 429 rate_limited with
// Retry-After when it runs dry.
import type { IncomingMessage } from 'node:http';
import type { MiddlewareHandler } from 'hono';
import { rateLimited } from '../../domain/errors.ts';
import type { AppEnv } from '../env.ts';

export interface RateLimit {
  /** Sustained requests per second. */
  perSecond: number;
  /** Requests allowed in a burst. */
  burst: number;
}

const MAX_CALLERS = 10_000;

/** Who is counted: the Authorization value when there is one, else the client address. */
export function callerOf(incoming: IncomingMessage | undefined, authorization: string | undefined): string {
  return authorization ?? incoming?.socket.remoteAddress ?? 'anonymous';
}

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

export function rateLimit(buckets: TokenBuckets): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const retryAfter = buckets.take(callerOf(c.env?.incoming, c.req.header('authorization')));
    if (retryAfter !== undefined) {
      throw rateLimited(retryAfter);
    }
    await next();
  };
}
