// Domain errors. The HTTP layer maps each to the Error body {error: {code, message, params?}}
// in one place; codes are dot-separated strings whose first tokens clients read, typed by the codes the
// description declares (x-error-codes), so that a code it does not declare fails to compile.
import type { SentErrorCode } from '@aggregation/types/error-codes';

export type { SentErrorCode };

export type ErrorParams = Record<string, string[]>;

/**
 * Params keyed by field names that come from requests: a prototype-less object, so that a field
 * named `constructor` or `__proto__` is a key like any other.
 */
export const newParams = (): ErrorParams => Object.create(null) as ErrorParams;

/** Adds `message` to `field` once. */
export function addParam(params: ErrorParams, field: string, message: string): void {
  if (!Object.hasOwn(params, field)) params[field] = [];
  const messages = params[field]!;
  if (!messages.includes(message)) messages.push(message);
}

export class ApiError extends Error {
  readonly status: number;
  readonly code: SentErrorCode;
  readonly params: ErrorParams | undefined;
  readonly headers: Record<string, string>;

  constructor(status: number, code: SentErrorCode, message: string, params?: ErrorParams, headers?: Record<string, string>) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
    this.params = params;
    this.headers = headers ?? {};
  }
}

export const badRequest = (message: string) => new ApiError(400, 'bad_request', message);
export const unauthorized = (message: string) => new ApiError(401, 'unauthorized', message);
export const forbidden = (message: string, code: SentErrorCode = 'forbidden') => new ApiError(403, code, message);
export const notFound = (message: string, code: SentErrorCode = 'not_found') => new ApiError(404, code, message);
export const unprocessable = (params: ErrorParams, message = 'The request has invalid fields.') =>
  new ApiError(422, 'unprocessable_entity', message, params);

export const rateLimited = (retryAfterSeconds: number) =>
  new ApiError(429, 'rate_limited', `Too many requests; retry in ${retryAfterSeconds} s.`, undefined, {
    'Retry-After': String(retryAfterSeconds),
  });

export function accountClosed(reason: string | null): ApiError {
  return new ApiError(
    410,
    reason ? `account.closed.${reason}` : 'account.closed',
    'The account is closed: the institution no longer gives access to it.',
  );
}

export function enrollmentDisconnected(reason: string | null): ApiError {
  return new ApiError(
    404,
    reason ? `enrollment.disconnected.${reason}` : 'enrollment.disconnected',
    'The enrollment is disconnected from its institution; the user must reconnect it with the connect widget.',
  );
}
