// A token bucket per caller (access token, else client address): 429 rate_limited with
// Retry-After when it runs dry.
import type { MiddlewareHandler } from 'hono';
import { ApiError } from '../../domain/errors.ts';
import type { AppEnv } from '../env.ts';

export interface RateLimit {
  /** Sustained requests per second. */
  perSecond: number;
  /** Requests allowed in a burst. */
  burst: number;
}

export function rateLimit(limit: RateLimit, now: () => number = Date.now): MiddlewareHandler<AppEnv> {
  const buckets = new Map<string, { tokens: number; at: number }>();
  return async (c, next) => {
    const key = c.req.header('authorization') ?? c.env?.incoming?.socket.remoteAddress ?? 'anonymous';
    const at = now();
    const bucket = buckets.get(key) ?? { tokens: limit.burst, at };
    bucket.tokens = Math.min(limit.burst, bucket.tokens + ((at - bucket.at) / 1000) * limit.perSecond);
    bucket.at = at;
    if (bucket.tokens < 1) {
      buckets.set(key, bucket);
      const retryAfter = Math.max(1, Math.ceil((1 - bucket.tokens) / limit.perSecond));
      throw new ApiError(429, 'rate_limited', `Too many requests; retry in ${retryAfter} s.`, undefined, {
        'Retry-After': String(retryAfter),
      });
    }
    bucket.tokens -= 1;
    buckets.set(key, bucket);
    if (buckets.size > 10_000) buckets.delete(buckets.keys().next().value!);
    await next();
  };
}
