// The per-attempt timeout of the signal transport. Linking an abort signal to a Request costs more than the rest of
// the client's work on a fast call, so the client builds each call's Request with no linked signal, and hands the
// attempt's signal to the fetch as `init.signal`, where the platform's fetch takes it from (and links it once). The
// Request still answers `signal` with the attempt's signal, for a fetch that reads it from there.
import { ConnectionTimeoutError } from './errors.ts';
import type { FetchLike } from './fetch-like.ts';

/**
 * A Request that keeps the caller's signal apart instead of linking it, with a controller of its own; its signal,
 * made when first read, follows that controller and the caller's. A transport that times attempts out otherwise
 * (Node's) reads only `callerSignal`, so the controller too is made when first asked for.
 */
export class AbortableRequest extends Request {
  /** The caller's signal, if any: unlike a timeout, its abort is final. */
  readonly callerSignal: AbortSignal | undefined;
  #controller: AbortController | undefined;
  #signal: AbortSignal | undefined;

  /** Follows `init.signal` (the caller's), not the signal of an input Request. */
  constructor(input: RequestInfo | URL, init: RequestInit = {}) {
    // `signal: null` keeps the platform from linking a signal to this Request.
    super(input, init.signal || input instanceof Request ? { ...init, signal: null } : init);
    this.callerSignal = init.signal ?? undefined;
  }

  get controller(): AbortController {
    this.#controller ??= new AbortController();
    return this.#controller;
  }

  override get signal(): AbortSignal {
    this.#signal ??= attemptSignal(this.controller, this.callerSignal);
    return this.#signal;
  }
}

/** Aborted by `controller`, and by the caller's signal when there is one. */
function attemptSignal(controller: AbortController, caller: AbortSignal | undefined): AbortSignal {
  return caller ? AbortSignal.any([caller, controller.signal]) : controller.signal;
}

export function hasTimeout(timeoutMs: number | undefined): timeoutMs is number {
  return timeoutMs !== undefined && timeoutMs > 0 && Number.isFinite(timeoutMs);
}

/** The error of an attempt that had no response within its timeout, whichever way it was timed out. */
export function timeoutError(request: Request, timeoutMs: number, cause: unknown): ConnectionTimeoutError {
  return new ConnectionTimeoutError(`No response within ${timeoutMs} ms: ${request.method} ${request.url}`, { cause });
}

/**
 * One attempt, given up when no response came within `timeoutMs`: its signal is aborted, and the attempt fails even
 * if the fetch does not listen to the signal. An AbortableRequest whose controller was not aborted is sent as it is;
 * any other request (a clone, or one that timed out before) is copied with a controller of its own.
 */
export function fetchWithTimeout(fetch: FetchLike, request: Request, timeoutMs: number, caller: AbortSignal | undefined): Promise<Response> {
  const attempt =
    request instanceof AbortableRequest && !request.controller.signal.aborted ? request : new AbortableRequest(request, { signal: caller ?? null });
  const controller = attempt.controller;
  // One promise settled by whichever comes first, and a timer cleared as soon as the response comes
  // (`AbortSignal.timeout` would keep one queued for the whole timeout).
  return new Promise<Response>((resolve, reject) => {
    const timer = setTimeout(() => {
      const reason = new DOMException('The operation was aborted due to timeout', 'TimeoutError');
      // Rejected before the abort, so the attempt fails with this error rather than the fetch's AbortError.
      reject(timeoutError(request, timeoutMs, reason));
      controller.abort(reason);
    }, timeoutMs);
    const settle =
      <T>(done: (value: T) => void) =>
      (value: T) => {
        clearTimeout(timer);
        done(value);
      };
    let sent: Response | Promise<Response>;
    try {
      sent = fetch(attempt, { signal: attempt.signal });
    } catch (error) {
      return settle(reject)(error);
    }
    Promise.resolve(sent).then(settle(resolve), settle(reject));
  });
}
