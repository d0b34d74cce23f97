// How a client sends one attempt of a call and gives it up when no response comes in time. The core's transport
// sends through a fetch and times attempts out with an abort signal (timeout.ts), which any fetch understands; the
// Node entry supplies one for Node's own fetch that needs no signal (node-transport.ts).
import type { FetchLike } from './fetch-like.ts';
import { AbortableRequest, fetchWithTimeout, hasTimeout } from './timeout.ts';

/**
 * Sends one attempt, given up when no response came within `timeoutMs` (never when 0). `caller` is the signal the call
 * was given, whose abort is final; an attempt that timed out fails with the ConnectionTimeoutError of `timeoutError`.
 */
export type SendAttempt = (request: Request, caller: AbortSignal | undefined, timeoutMs: number) => Promise<Response>;

/** The Request class a client builds its calls with, and how it sends them. */
export type Transport = { Request: typeof Request; send: SendAttempt };

/**
 * Calls `fetch(request, { signal })` with each attempt's signal, aborted by the timeout or by the caller's signal;
 * without a timeout, with the caller's signal alone.
 */
export function signalTransport(fetch: FetchLike): Transport {
  return {
    Request: AbortableRequest,
    send: (request, caller, timeoutMs) => {
      if (hasTimeout(timeoutMs)) return fetchWithTimeout(fetch, request, timeoutMs, caller);
      return Promise.resolve(caller ? fetch(request, { signal: caller }) : fetch(request));
    },
  };
}

/** The signal a call was given: an AbortableRequest keeps it apart, any other Request follows it. */
export function callerSignal(request: Request): AbortSignal | undefined {
  return request instanceof AbortableRequest ? request.callerSignal : request.signal;
}
