// Delivers the outbox: POSTs each pending delivery, signed, and records the outcome. A
// delivery stays pending until a 2xx is recorded, so deliveries survive restarts (at least
// once); failures are retried with exponential backoff until the attempts run out. Workers
// claim what they send (a lease in the database), so several processes on one database
// deliver each delivery once.
import type { Now } from '../domain/clock.ts';
import type { DeliveryRow, EventRow, Store } from '../storage/store.ts';
import { SIGNATURE_HEADER, signBody } from './signature.ts';

export interface RetryPolicy {
  /** Delay before the second attempt; doubles each time. */
  baseDelayMs: number;
  maxDelayMs: number;
  maxAttempts: number;
}

export interface WorkerOptions {
  store: Store;
  now: Now;
  /** Renders the request body of an event (its envelope in the webhook version). */
  render: (event: EventRow) => Promise<string>;
  /** The signing secrets of an application in force now. */
  secrets: (applicationId: string) => Promise<string[]>;
  retry: RetryPolicy;
  timeoutMs: number;
  /** Upper bound on how long the worker sleeps when nothing is due. */
  pollMs: number;
  concurrency: number;
  /** How long a claimed delivery stays out of other workers' reach (default: the timeout plus a minute). */
  leaseMs?: number;
  fetch?: typeof fetch;
  onError?: (error: unknown) => void;
}

export const defaultRetry: RetryPolicy = { baseDelayMs: 5_000, maxDelayMs: 60 * 60_000, maxAttempts: 12 };

export function backoff(policy: RetryPolicy, attempts: number): number {
  return Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** Math.max(0, attempts - 1));
}

export class DeliveryWorker {
  private readonly options: WorkerOptions;
  private readonly inFlight = new Map<string, Promise<void>>();
  private timer: NodeJS.Timeout | undefined;
  private immediate: NodeJS.Immediate | undefined;
  private running = false;
  private ticking: Promise<void> | undefined;
  private again = false;

  constructor(options: WorkerOptions) {
    this.options = options;
  }

  /** Starts, and picks up whatever was left pending before. */
  start(): void {
    if (this.running) return;
    this.running = true;
    this.wake();
  }

  /** Looks at the outbox now (called after a commit that recorded events). */
  wake(): void {
    if (!this.running) return;
    this.schedule(0);
  }

  /** Stops taking work and waits for the attempts in flight. */
  async stop(): Promise<void> {
    this.running = false;
    this.cancelTick();
    await this.ticking;
    await Promise.allSettled([...this.inFlight.values()]);
  }

  /** Resolves once nothing is due or in flight (for tests and shutdown). */
  async idle(): Promise<void> {
    for (;;) {
      await Promise.allSettled([...this.inFlight.values()]);
      if (this.inFlight.size === 0 && (!(await this.anyDue(this.options.now())) || !this.running)) return;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }

  private schedule(delay: number): void {
    if (!this.running) return;
    this.cancelTick();
    // A zero delay means now: setTimeout waits at least 1 ms, idling a delivery slot on every wake. The immediate
    // stays referenced: an unreferenced one set after the loop's poll phase would wait for the next I/O or timer.
    if (delay <= 0) {
      this.immediate = setImmediate(() => void this.tick());
      return;
    }
    this.timer = setTimeout(() => void this.tick(), delay).unref();
  }

  private cancelTick(): void {
    if (this.timer) clearTimeout(this.timer);
    if (this.immediate) clearImmediate(this.immediate);
    this.timer = undefined;
    this.immediate = undefined;
  }

  /** Whether some pending delivery is due at `at` (a read; claiming is a write). */
  private async anyDue(at: number): Promise<boolean> {
    const next = await this.options.store.outbox.nextDueAt();
    return next !== null && next <= at;
  }

  private tick(): Promise<void> {
    if (this.ticking) {
      this.again = true;
      return this.ticking;
    }
    this.ticking = this.work().finally(() => {
      this.ticking = undefined;
    });
    return this.ticking;
  }

  private async work(): Promise<void> {
    const { store, now, timeoutMs } = this.options;
    try {
      do {
        this.again = false;
        const free = this.options.concurrency - this.inFlight.size;
        if (free <= 0) break;
        const at = now();
        // A read first: an empty claim would still be a write transaction (and a commit that read caches see).
        if (!(await this.anyDue(at))) break;
        const leaseUntil = at + (this.options.leaseMs ?? timeoutMs + 60_000);
        // A lease lost in a crash only makes the delivery due again: the claim need not reach the disk first.
        const claimed = await store.transaction((tx) => tx.outbox.claimDue(at, free, leaseUntil), { durable: false, changes: 'outbox' });
        if (!this.running) {
          // Stopped while claiming: hand them back rather than leave them leased. Like the claim, this need not
          // reach the disk first: lost, the lease still runs out and the deliveries fall due again.
          await store.transaction(
            async (tx) => {
              for (const delivery of claimed) await tx.outbox.updateDelivery(delivery.id, { next_attempt_at: at });
            },
            { durable: false, changes: 'outbox' },
          );
          return;
        }
        for (const delivery of claimed) {
          // Only if an attempt outlived its lease: it records the outcome itself.
          if (this.inFlight.has(delivery.id)) continue;
          const attempt = this.attempt(delivery)
            .catch((error) => this.options.onError?.(error))
            .finally(() => {
              this.inFlight.delete(delivery.id);
              this.wake();
            });
          this.inFlight.set(delivery.id, attempt);
        }
      } while (this.again && this.running);
      const next = await store.outbox.nextDueAt();
      const wait = next === null ? this.options.pollMs : Math.min(this.options.pollMs, next - now());
      if (this.inFlight.size < this.options.concurrency) this.schedule(wait);
    } catch (error) {
      this.options.onError?.(error);
      this.schedule(this.options.pollMs);
    }
  }

  private async attempt(delivery: DeliveryRow): Promise<void> {
    const { store, now, retry } = this.options;
    const event = await store.outbox.getEvent(delivery.event_id);
    if (!event) return;
    const body = await this.options.render(event);
    const secrets = await this.options.secrets(delivery.application_id);
    const timestamp = Math.floor(now() / 1000);
    let status: number | null = null;
    let failure: string | null = null;
    try {
      const response = await (this.options.fetch ?? fetch)(delivery.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'user-agent': 'aggregation-webhooks/1',
          [SIGNATURE_HEADER]: signBody(body, secrets, timestamp),
        },
        body,
        signal: AbortSignal.timeout(this.options.timeoutMs),
        redirect: 'manual',
      });
      status = response.status;
      if (status < 200 || status >= 300) failure = `HTTP ${status}${await bodyStart(response)}`;
      await response.body?.cancel().catch(() => undefined);
    } catch (error) {
      failure = connectionFailure(error, this.options.timeoutMs);
    }
    const attempts = delivery.attempts + 1;
    const at = now();
    if (status !== null && status >= 200 && status < 300) {
      await store.transaction(
        (tx) =>
          tx.outbox.updateDelivery(delivery.id, {
            status: 'delivered',
            attempts,
            last_status: status,
            last_error: null,
            next_attempt_at: null,
            delivered_at: at,
          }),
        { changes: 'outbox' },
      );
      return;
    }
    const exhausted = attempts >= retry.maxAttempts;
    await store.transaction(
      (tx) =>
        tx.outbox.updateDelivery(delivery.id, {
          status: exhausted ? 'failed' : 'pending',
          attempts,
          last_status: status,
          // Within the description's 300 characters, whatever the error said.
          last_error: failure?.slice(0, 300) ?? null,
          next_attempt_at: exhausted ? null : at + backoff(retry, attempts),
        }),
      { changes: 'outbox' },
    );
  }
}

/** How much of a refusing receiver's answer the delivery log keeps. */
export const FAILURE_BODY_BYTES = 200;

/** `: <the first bytes of the body>` of a refusing answer, or nothing when it has none (or it cannot be read). */
async function bodyStart(response: Response): Promise<string> {
  const reader = response.body?.getReader();
  if (!reader) return '';
  const chunks: Uint8Array[] = [];
  let length = 0;
  try {
    while (length < FAILURE_BODY_BYTES) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      length += value.length;
    }
  } catch {
    // A body cut off midway still tells what arrived.
  } finally {
    await reader.cancel().catch(() => undefined);
  }
  const text = Buffer.concat(chunks).subarray(0, FAILURE_BODY_BYTES).toString('utf8').replace(/\s+/g, ' ').trim();
  return text ? `: ${text}` : '';
}

/** Network error codes (the fetch error's cause) in the words the delivery log uses. */
const NETWORK_FAILURES: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ECONNRESET: 'connection reset',
  ENOTFOUND: 'DNS lookup failed',
  EAI_AGAIN: 'DNS lookup failed',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  UND_ERR_SOCKET: 'connection closed by the receiver',
  UND_ERR_CONNECT_TIMEOUT: 'connect timeout',
};

/** Why an attempt got no HTTP answer: the timeout, a named network failure, or the error's own words. */
export function connectionFailure(error: unknown, timeoutMs: number): string {
  const failure = error as Error & { cause?: { code?: string; message?: string } };
  if (failure.name === 'TimeoutError') return `timeout after ${timeoutMs} ms`;
  const code = failure.cause?.code;
  if (code && NETWORK_FAILURES[code]) return NETWORK_FAILURES[code];
  const detail = failure.cause?.message ?? failure.message ?? String(error);
  return code ? `${detail} (${code})` : detail;
}
