// Node's own fetch (undici) links any AbortSignal it is given to the Request it builds (listeners, a WeakRef and a
// FinalizationRegistry entry), and given a Request it builds another, linking that one's signal: several µs per call
// with the collector's share, more than the rest of the client's work on a fast call. So on Node's fetch an attempt
// times out with undici's own per-request headers timeout, set by the dispatcher, and the fetch is given the URL and
// an init: no signal at all unless the call was given one.
import type { Dispatcher } from 'undici';
import { AbortableRequest, hasTimeout, timeoutError } from './timeout.ts';
import type { Transport } from './transport.ts';

/** What Node's fetch calls of its `dispatcher`. */
type Dispatch = Pick<Dispatcher, 'dispatch'>;

/**
 * Sends through Node's fetch with `dispatcher()` (the global dispatcher, or an mTLS agent), read at each call. The
 * timeout bounds the wait for the response's status and headers once the request is on a connection (connecting has
 * undici's own connect timeout), checked by undici's coarse timers: it may fire up to about a second late.
 */
export function dispatcherTransport(dispatcher: () => Dispatch): Transport {
  // The dispatcher of the last timeout used: a client's calls nearly all share its default one.
  let timed: { timeoutMs: number; dispatch: Dispatch } | undefined;
  const dispatcherFor = (timeoutMs: number): Dispatch => {
    if (!hasTimeout(timeoutMs)) return dispatcher();
    if (timed?.timeoutMs !== timeoutMs) timed = { timeoutMs, dispatch: withHeadersTimeout(dispatcher, timeoutMs) };
    return timed.dispatch;
  };
  // The controller and signal of an AbortableRequest are made only when read, which this transport never does.
  return { Request: AbortableRequest, send: (request, caller, timeoutMs) => send(request, caller, dispatcherFor(timeoutMs), timeoutMs) };
}

/**
 * Dispatches through `base()` with undici's headers timeout set on each request; its body timeout stays as it is, so
 * a response that came in time is not cut off while its body arrives. Not `base.compose(interceptor)`: that wraps the
 * fetch's handler in undici's other handler interface and back on every request, which costs more than a signal.
 */
export function withHeadersTimeout(base: () => Dispatch, timeoutMs: number): Dispatch {
  return { dispatch: (options, handler) => base().dispatch({ ...options, headersTimeout: timeoutMs }, handler) };
}

function send(request: Request, caller: AbortSignal | undefined, dispatcher: Dispatch, timeoutMs: number): Promise<Response> {
  const init: RequestInit & { dispatcher: Dispatch } = { method: request.method, headers: request.headers, redirect: request.redirect, dispatcher };
  if (caller) init.signal = caller;
  // The small JSON bodies of this API are read whole: every attempt sends a clone of the call's Request, and bytes
  // go out with their Content-Length (a stream would need `duplex: 'half'` and go out chunked).
  if (!request.body) return platformFetch(request, init, timeoutMs);
  return request.arrayBuffer().then((body) => platformFetch(request, { ...init, body }, timeoutMs));
}

async function platformFetch(request: Request, init: RequestInit, timeoutMs: number): Promise<Response> {
  try {
    return await globalThis.fetch(request.url, init);
  } catch (error) {
    throw isHeadersTimeout(error) ? timeoutError(request, timeoutMs, error) : error;
  }
}

/** Node's fetch fails with `TypeError: fetch failed`, caused by undici's HeadersTimeoutError. */
function isHeadersTimeout(error: unknown): boolean {
  return error instanceof TypeError && (error.cause as { code?: unknown } | undefined)?.code === 'UND_ERR_HEADERS_TIMEOUT';
}
