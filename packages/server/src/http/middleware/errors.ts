// The one place that turns failures into the Error body {error: {code, message, params?}}.
import type { Context } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { ApiError } from '../../domain/errors.ts';
import { StoreUnavailable } from '../../storage/store.ts';

/** Seconds a client is asked to wait while the database cannot be reached. */
const UNAVAILABLE_RETRY_AFTER_S = 2;

import type { AppEnv } from '../env.ts';

export type ErrorLogger = (error: unknown, c: Context<AppEnv>) => void;

/** The request's stream was aborted before it ended: its body can never be read. */
function clientWentAway(c: Context<AppEnv>): boolean {
  const incoming = c.env?.incoming;
  return incoming?.destroyed === true && !incoming.complete;
}

export function errorResponse(c: Context<AppEnv>, error: unknown, log?: ErrorLogger): Response {
  let failure: ApiError;
  if (error instanceof ApiError) {
    failure = error;
  } else if (error instanceof StoreUnavailable) {
    log?.(error, c);
    failure = new ApiError(
      503,
      'service_unavailable',
      'The service cannot reach its database for a moment; retry after the number of seconds in the Retry-After header.',
      undefined,
      { 'Retry-After': String(UNAVAILABLE_RETRY_AFTER_S) },
    );
  } else if (clientWentAway(c)) {
    // The client broke off its request (a reset, a malformed chunk): nobody is left to read an answer, and nothing
    // on our side went wrong.
    failure = new ApiError(400, 'bad_request', 'The request was broken off before its body was complete.');
  } else if (error instanceof HTTPException && error.status < 500) {
    failure = new ApiError(error.status, error.status === 413 ? 'payload_too_large' : 'bad_request', error.message || 'The request is malformed.');
  } else {
    log?.(error, c);
    failure = new ApiError(500, 'internal_error', 'Something went wrong on our side; the request may be retried.');
  }
  for (const [name, value] of Object.entries(failure.headers)) c.header(name, value);
  const body = {
    error: {
      code: failure.code,
      message: failure.message,
      ...(failure.params ? { params: failure.params } : {}),
      request_id: c.get('requestId'),
    },
  };
  return c.json(body, failure.status as ContentfulStatusCode);
}

/**
 * Answers requests no route took: 405 with `Allow` when the path is documented for other methods, 404 otherwise.
 * `allowedMethods` reads the documented methods of a concrete path from the descriptions.
 */
export const notFoundResponse =
  (allowedMethods: (path: string) => string[]) =>
  (c: Context<AppEnv>): Response => {
    const path = new URL(c.req.url).pathname;
    const allowed = allowedMethods(path);
    if (allowed.length === 0) return errorResponse(c, new ApiError(404, 'not_found', `No route ${c.req.method} ${path}.`));
    const allow = allowed.join(', ');
    return errorResponse(
      c,
      new ApiError(405, 'method_not_allowed', `${c.req.method} is not allowed on ${path}; allowed: ${allow}.`, undefined, { Allow: allow }),
    );
  };
