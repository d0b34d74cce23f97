// How a client sends one attempt of a call and gives it up when no response comes in time. The core's transport
// sends through a fetch and times attempts out with an abort signal (timeout.ts), which any fetch understands; the
// Node entry supplies one for Node's own fetch that needs no signal (node-transport.ts).
import type { FetchLike } from './fetch-like.ts';
import { AbortableRequest, fetchWithTimeout, hasTimeout } from './timeout.ts';

/**
 * Sends one attempt. `caller` is the signal the call was given, whose abort is final; an attempt that had no response
 * within the timeout fails with the ConnectionError of `timeoutError`.
 */
export type SendAttempt = (request: Request, caller: AbortSignal | undefined) => Promise<Response>;

/** The Request class a client builds its calls with, and how it sends them, each attempt given up after `timeoutMs` (never when 0). */
export type Transport = (timeoutMs: number) => { Request: typeof Request; send: SendAttempt };

/** Calls `fetch(request, { signal })` with each attempt's signal, aborted by the timeout or by the caller's signal. */
export function signalTransport(fetch: FetchLike): Transport {
  return (timeoutMs) =>
    hasTimeout(timeoutMs)
      ? { Request: AbortableRequest, send: (request, caller) => fetchWithTimeout(fetch, request, timeoutMs, caller) }
      : { Request, send: async (request) => fetch(request) };
}

/** The signal a call was given: an AbortableRequest keeps it apart, any other Request follows it. */
export function callerSignal(request: Request): AbortSignal | undefined {
  return request instanceof AbortableRequest ? request.callerSignal : request.signal;
}
