// A token bucket per caller: each request takes a token, and buckets refill at the sustained
// rate up to the burst. The rate-limit middleware answers 429 when a bucket runs dry.

export interface RateLimit {
  /** Sustained requests per second. */
  perSecond: number;
  /** Requests allowed in a burst. */
  burst: number;
}

const MAX_CALLERS = 10_000;

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
