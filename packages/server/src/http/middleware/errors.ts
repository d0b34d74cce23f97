// The one place that turns failures into the Error body {error: {code, message, params?}}.
import type { Context } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { ApiError } from '../../domain/errors.ts';
import type { AppEnv } from '../env.ts';

export type ErrorLogger = (error: unknown, c: Context<AppEnv>) => void;

export function errorResponse(c: Context<AppEnv>, error: unknown, log?: ErrorLogger): Response {
  let failure: ApiError;
  if (error instanceof ApiError) {
    failure = error;
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
    },
  };
  return c.json(body, failure.status as ContentfulStatusCode);
}

export const notFoundResponse = (c: Context<AppEnv>): Response =>
  errorResponse(c, new ApiError(404, 'not_found', `No route ${c.req.method} ${new URL(c.req.url).pathname}.`));
