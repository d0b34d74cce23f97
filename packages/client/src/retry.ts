import { connectionFailureOf, failureDescriptions } from './connection-failure.ts';
import { ConnectionError, ConnectionTimeoutError, parseRetryAfterSeconds } from './errors.ts';
import type { FetchLike } from './fetch-like.ts';
import { callerSignal, type SendAttempt, signalTransport } from './transport.ts';

export type RetryInfo = {
  /** 1 for the first retry. */
  attempt: number;
  delayMs: number;
  request: Request;
  /** The response that caused the retry, or the error when none came. */
  response?: Response;
  error?: unknown;
};

export type RetryOptions = {
  /** Retries after the first attempt; 0 turns retrying off. Default 2. */
  maxRetries?: number;
  /** First backoff step; doubles per retry. Default 500 ms. */
  baseDelayMs?: number;
  /** Cap of one backoff step. Default 8 s. */
  maxDelayMs?: number;
  /** A longer `Retry-After` is not waited for: the response is returned as it is. Default 60 s. */
  maxRetryAfterMs?: number;
  /** Statuses worth another attempt. Default 429, 502, 503, 504. */
  statuses?: readonly number[];
  /** Called before each retry (logging, metrics). */
  onRetry?: (info: RetryInfo) => void;
  /** Replaceable clock, for tests. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** Replaceable jitter source in [0, 1), for tests. */
  random?: () => number;
};

export const defaultRetryStatuses: readonly number[] = [429, 502, 503, 504];

const idempotentMethods = new Set(['GET', 'HEAD', 'OPTIONS', 'DELETE', 'PUT']);

/**
 * Only requests that can safely run twice are retried: reads and deletes, and a POST that carries an
 * `Idempotency-Key` (the server replays the first outcome for the same key). A POST without one never is.
 */
export function isRetryable(request: Request): boolean {
  return idempotentMethods.has(request.method.toUpperCase()) || request.headers.has('Idempotency-Key');
}

/** Backoff with equal jitter: half the exponential step, plus a random part of the other half. */
export function backoffDelay(retry: number, options: RetryOptions = {}): number {
  const base = options.baseDelayMs ?? 500;
  const max = options.maxDelayMs ?? 8_000;
  const step = Math.min(max, base * 2 ** (retry - 1));
  return step / 2 + (options.random ?? Math.random)() * (step / 2);
}

export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** What one call may set over its client's defaults. */
export type CallSettings = {
  /** Per attempt, as the client's `timeout`; 0 disables. */
  timeoutMs?: number | undefined;
  /** Retries after the first attempt, as the client's `maxRetries`. */
  maxRetries?: number | undefined;
  /** Called before each retry of this call, after the client's `onRetry`. */
  onRetry?: ((info: RetryInfo) => void) | undefined;
};

/** Sends a call: its attempts, each timed out, with the retries its request allows. */
export type RetryingSend = (request: Request, call?: CallSettings) => Promise<Response>;

/**
 * Wraps a fetch with retries and a per-attempt timeout. Every attempt sends the original request, or a clone of it
 * when it has a body, so the body and every header (the payment's `Idempotency-Key` included) are identical.
 */
export function createRetryingFetch(
  fetch: FetchLike,
  options: RetryOptions & { timeoutMs?: number | undefined } = {},
): (request: Request) => Promise<Response> {
  const send = createRetryingSend(signalTransport(fetch).send, options);
  return (request) => send(request);
}

/** The same retries around any way of sending an attempt (a transport's `send`, which also times it out). */
export function createRetryingSend(send: SendAttempt, options: RetryOptions & { timeoutMs?: number | undefined } = {}): RetryingSend {
  const statuses = options.statuses ?? defaultRetryStatuses;
  const maxRetryAfterMs = options.maxRetryAfterMs ?? 60_000;
  const wait = options.sleep ?? sleep;

  return async function retryingFetch(request: Request, call?: CallSettings): Promise<Response> {
    const maxRetries = call?.maxRetries ?? options.maxRetries ?? 2;
    const timeoutMs = call?.timeoutMs ?? options.timeoutMs ?? 0;
    const retryable = isRetryable(request);
    // Only the caller's abort is final, not a timeout's.
    const caller = callerSignal(request);
    for (let retry = 0; ; retry++) {
      const canRetry = retryable && retry < maxRetries;
      // Only a body is consumed by sending; a bodyless request is sent again as it is.
      const attempt = canRetry && request.body ? request.clone() : request;
      let response: Response;
      try {
        response = await send(attempt, caller, timeoutMs);
      } catch (error) {
        // The caller's own abort is final; anything else (network failure, our timeout) is a connection error.
        if (caller?.aborted) throw error;
        if (!canRetry) throw toConnectionError(error, request);
        const delayMs = backoffDelay(retry + 1, options);
        noteRetry({ attempt: retry + 1, delayMs, request, error }, options, call);
        await wait(delayMs, caller);
        continue;
      }
      if (!canRetry || !statuses.includes(response.status)) return response;

      const retryAfter = parseRetryAfterSeconds(response.headers.get('Retry-After'));
      let delayMs = backoffDelay(retry + 1, options);
      if (retryAfter !== undefined) {
        const asked = retryAfter * 1000;
        if (asked > maxRetryAfterMs) return response;
        delayMs = Math.max(asked, 0);
      }
      noteRetry({ attempt: retry + 1, delayMs, request, response }, options, call);
      // Frees the connection of the discarded response.
      await response.body?.cancel().catch(() => {});
      await wait(delayMs, caller);
    }
  };
}

function noteRetry(info: RetryInfo, options: RetryOptions, call: CallSettings | undefined): void {
  options.onRetry?.(info);
  call?.onRetry?.(info);
}

function toConnectionError(error: unknown, request: Request): unknown {
  if (error instanceof ConnectionError) return error;
  const reason = connectionFailureOf(error);
  const message = `Request failed, ${failureDescriptions[reason]}: ${request.method} ${request.url}`;
  return reason === 'timeout' ? new ConnectionTimeoutError(message, { cause: error }) : new ConnectionError(message, { cause: error, reason });
}
