// The per-attempt timeout of the retrying fetch. Aborting a fetch takes a Request whose signal can be aborted, and
// building one costs more than the rest of the client's work on a fast call, so the client builds each call's
// Request abortable from the start and its first attempt needs no copy.
import { ConnectionError } from './errors.ts';
import type { FetchLike } from './retry.ts';

/** A Request whose signal follows a controller of its own (and the caller's signal, when one is given). */
export class AbortableRequest extends Request {
  readonly controller: AbortController;
  /** The caller's signal, if any: unlike a timeout, its abort is final. */
  readonly callerSignal: AbortSignal | undefined;

  constructor(input: RequestInfo | URL, init: RequestInit = {}) {
    const controller = new AbortController();
    const caller = init.signal ?? (input instanceof Request ? input.signal : undefined);
    super(input, { ...init, signal: attemptSignal(controller, caller) });
    this.controller = controller;
    this.callerSignal = caller;
  }
}

/** Aborted by `controller`, and by the caller's signal when there is one. */
function attemptSignal(controller: AbortController, caller: AbortSignal | undefined): AbortSignal {
  return caller ? AbortSignal.any([caller, controller.signal]) : controller.signal;
}

export function hasTimeout(timeoutMs: number | undefined): timeoutMs is number {
  return timeoutMs !== undefined && timeoutMs > 0 && Number.isFinite(timeoutMs);
}

/**
 * One attempt, aborted when no response came within `timeoutMs`. `controller` is one that the request's signal
 * already follows; without it the request is copied with a signal of its own that also follows `caller`.
 */
export async function fetchWithTimeout(
  fetch: FetchLike,
  request: Request,
  timeoutMs: number,
  caller: AbortSignal | undefined,
  controller?: AbortController,
): Promise<Response> {
  let attempt = request;
  if (!controller) {
    controller = new AbortController();
    attempt = new Request(request, { signal: attemptSignal(controller, caller) });
  }
  let timedOut = false;
  // Cleared as soon as the response comes: `AbortSignal.timeout` would keep a timer queued for the whole timeout.
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort(new DOMException('The operation was aborted due to timeout', 'TimeoutError'));
  }, timeoutMs);
  try {
    return await fetch(attempt);
  } catch (error) {
    if (timedOut && !caller?.aborted) {
      throw new ConnectionError(`No response within ${timeoutMs} ms: ${request.method} ${request.url}`, { cause: error });
    }
    throw error;
  } finally {
    clearTimeout(timer);
  }
}
