import { errorCodes } from '@aggregation/types/error-codes';
import { codeReason, codeStartsWith } from './codes.ts';
import { type ConnectionFailure, connectionFailureOf } from './connection-failure.ts';
import { type EnrollmentStatus, readEnrollmentStatus } from './enrollment-status.ts';

/**
 * Every code the description declares, generated from its `x-error-codes`. A family (`account.closed`) may carry
 * reason tokens after its own, and a server newer than this client may send codes it does not list yet.
 */
export const ErrorCodes = {
  ...errorCodes,
  /** @deprecated Named `accountNumberVerificationPending`, as in the description. */
  verificationPending: errorCodes.accountNumberVerificationPending,
  /** @deprecated Named `accountNumberVerificationExpired`, as in the description. */
  verificationExpired: errorCodes.accountNumberVerificationExpired,
} as const;

export type { ErrorCode } from '@aggregation/types/error-codes';

/** Families whose trailing tokens are a reason (`account.closed.<reason>`). */
const reasonFamilies = [ErrorCodes.accountClosed, ErrorCodes.enrollmentDisconnected];

/** Base class of everything this client throws, so one `instanceof` catches them all. */
export class AggregationError extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = new.target.name;
  }
}

type ErrorBody = { error?: { code?: unknown; message?: unknown; params?: unknown; request_id?: unknown } };

/** The response header naming the request; error bodies repeat it as `error.request_id`. */
export const REQUEST_ID_HEADER = 'Request-Id';

/** An error response of the API: the status plus the `error` object of the body. */
export class ApiError extends AggregationError {
  readonly status: number;
  /** Dot-separated error code, e.g. `account.closed.user_request`. Compare with {@link ApiError.hasCode}. */
  readonly code: string;
  /** Only for invalid submitted data: field name → messages. */
  readonly params: Record<string, string[]> | undefined;
  /** The `Service-Enrollment-Status` of the error response, when sent. */
  readonly enrollmentStatus: EnrollmentStatus | undefined;
  /** Seconds from `Retry-After` (429), when sent. */
  readonly retryAfter: number | undefined;
  readonly headers: Headers;
  /** The body as received (parsed JSON when it was JSON). */
  readonly body: unknown;
  /** `METHOD /path/template` of the failed call, for logs. */
  readonly operation: string | undefined;
  /** The server's id of the failed request (`error.request_id`, else the `Request-Id` header): quote it when asking. */
  readonly requestId: string | undefined;

  constructor(init: {
    status: number;
    code: string;
    message: string;
    params?: Record<string, string[]> | undefined;
    headers?: Headers;
    body?: unknown;
    operation?: string | undefined;
    requestId?: string | undefined;
  }) {
    super(init.message);
    this.status = init.status;
    this.code = init.code;
    this.params = init.params;
    this.headers = init.headers ?? new Headers();
    this.body = init.body;
    this.operation = init.operation;
    this.requestId = init.requestId ?? this.headers.get(REQUEST_ID_HEADER) ?? undefined;
    this.enrollmentStatus = readEnrollmentStatus({ headers: this.headers });
    this.retryAfter = parseRetryAfterSeconds(this.headers.get('Retry-After'));
  }

  /** Builds the error from a non-2xx response and its already-read body, as the class of its status. */
  static fromResponse(response: Response, body: unknown, operation?: string): ApiError {
    const error = (body as ErrorBody | undefined)?.error;
    const code = typeof error?.code === 'string' && error.code ? error.code : `http_${response.status}`;
    const message =
      typeof error?.message === 'string' && error.message
        ? error.message
        : `HTTP ${response.status}${response.statusText ? ` ${response.statusText}` : ''}`;
    const StatusError = apiErrorClassFor(response.status);
    return new StatusError({
      status: response.status,
      code,
      message,
      params: isParams(error?.params) ? error.params : undefined,
      headers: response.headers,
      body,
      operation,
      requestId: typeof error?.request_id === 'string' && error.request_id ? error.request_id : undefined,
    });
  }

  /** True when the code starts with all tokens of `prefix`. */
  hasCode(prefix: string): boolean {
    return codeStartsWith(this.code, prefix);
  }

  /** Reason tokens after a known family (`account.closed`, `enrollment.disconnected`), when present. */
  get reason(): string | undefined {
    for (const family of reasonFamilies) {
      if (this.hasCode(family)) return codeReason(this.code, family);
    }
    return undefined;
  }
}

type ApiErrorInit = ConstructorParameters<typeof ApiError>[0];

// One class per status, so that a caller writes `error instanceof NotFoundError`; every one is an ApiError.

/** 400 `bad_request`: the request is malformed (an unknown version, a live token without its certificate). */
export class BadRequestError extends ApiError {}
/** 401: no access token, or one the service does not accept. */
export class AuthenticationError extends ApiError {}
/** 403 `forbidden`: the token is unknown or was revoked. */
export class PermissionDeniedError extends ApiError {}
/** 404: no such resource for this token (and `enrollment.disconnected`, verification pending or expired). */
export class NotFoundError extends ApiError {}
/** 410 `account.closed[.<reason>]`. */
export class GoneError extends ApiError {}
/** 422: invalid fields (`params`), an `Idempotency-Key` reused with another body, payments not supported. */
export class UnprocessableEntityError extends ApiError {}
/** 429 `rate_limited`; `retryAfter` says how many seconds to wait. */
export class RateLimitError extends ApiError {}
/** 502 `bad_gateway`: the institution failed. */
export class BadGatewayError extends ApiError {}
/** 503 `service_unavailable`. */
export class ServiceUnavailableError extends ApiError {}
/** 504 `gateway_timeout`: the institution did not answer in time. */
export class GatewayTimeoutError extends ApiError {}
/** Any other 5xx (500 `internal_error`, ...). */
export class InternalServerError extends ApiError {}

const apiErrorClasses: Record<number, new (init: ApiErrorInit) => ApiError> = {
  400: BadRequestError,
  401: AuthenticationError,
  403: PermissionDeniedError,
  404: NotFoundError,
  410: GoneError,
  422: UnprocessableEntityError,
  429: RateLimitError,
  502: BadGatewayError,
  503: ServiceUnavailableError,
  504: GatewayTimeoutError,
};

/** The class an error answer of `status` is thrown as: one per status above, InternalServerError for other 5xx, else ApiError. */
export function apiErrorClassFor(status: number): new (init: ApiErrorInit) => ApiError {
  return apiErrorClasses[status] ?? (status >= 500 && status <= 599 ? InternalServerError : ApiError);
}

/**
 * The request never got an HTTP response, after any retries; `reason` says why (`connection_refused`, `dns`,
 * `timeout`, `connection_reset`, `tls`, or `network` when the runtime does not say).
 */
export class ConnectionError extends AggregationError {
  readonly reason: ConnectionFailure;
  constructor(message: string, options: ErrorOptions & { reason?: ConnectionFailure } = {}) {
    super(message, options);
    this.reason = options.reason ?? connectionFailureOf(options.cause);
  }
}

/** No response came within the timeout (the client's, or the platform's connect timeout); `reason` is `timeout`. */
export class ConnectionTimeoutError extends ConnectionError {
  constructor(message: string, options: ErrorOptions = {}) {
    super(message, { ...options, reason: 'timeout' });
  }
}

/** The client was set up in a way that cannot work; raised before any request is sent. */
export class ConfigurationError extends AggregationError {}

/** Refused locally: the account's `links` has no `payments`, so it cannot originate payments. */
export class PaymentsNotSupportedError extends AggregationError {
  readonly accountId: string;
  readonly code = ErrorCodes.paymentsNotSupported;
  constructor(accountId: string) {
    super(`Account ${accountId} does not support payments (its links have no "payments")`);
    this.accountId = accountId;
  }
}

export function isApiError(error: unknown): error is ApiError {
  return error instanceof ApiError;
}

/** 410 `account.closed[.<reason>]`; the reason is `error.reason`. */
export function isAccountClosed(error: unknown): error is ApiError {
  return isApiError(error) && error.hasCode(ErrorCodes.accountClosed);
}

/**
 * The enrollment is disconnected: the code `enrollment.disconnected[.<reason>]`, or any error whose
 * `Service-Enrollment-Status` says `disconnected`. The user reconnects through the enrollment widget.
 */
export function isEnrollmentDisconnected(error: unknown): error is ApiError {
  return isApiError(error) && (error.hasCode(ErrorCodes.enrollmentDisconnected) || error.enrollmentStatus?.status === 'disconnected');
}

/** The disconnection reason from the code, else from the enrollment status header. */
export function disconnectReason(error: unknown): string | undefined {
  if (!isEnrollmentDisconnected(error)) return undefined;
  return codeReason(error.code, ErrorCodes.enrollmentDisconnected) ?? error.enrollmentStatus?.reason;
}

/** Account details are waiting for the microdeposit verification. */
export function isVerificationPending(error: unknown): error is ApiError {
  return isApiError(error) && error.hasCode(ErrorCodes.accountNumberVerificationPending);
}

/** The microdeposit verification was not completed within 7 days. */
export function isVerificationExpired(error: unknown): error is ApiError {
  return isApiError(error) && error.hasCode(ErrorCodes.accountNumberVerificationExpired);
}

export function isRateLimited(error: unknown): error is ApiError {
  return isApiError(error) && (error.status === 429 || error.hasCode(ErrorCodes.rateLimited));
}

/** 422 with field messages in `params`. */
export function isValidationError(error: unknown): error is ApiError {
  return isApiError(error) && error.status === 422 && error.hasCode(ErrorCodes.unprocessableEntity);
}

function isParams(value: unknown): value is Record<string, string[]> {
  return (
    typeof value === 'object' &&
    value !== null &&
    !Array.isArray(value) &&
    Object.values(value).every((messages) => Array.isArray(messages) && messages.every((m) => typeof m === 'string'))
  );
}

/** `Retry-After` is either delta-seconds or an HTTP date; returns seconds (not negative) or `undefined`. */
export function parseRetryAfterSeconds(value: string | null | undefined, now: number = Date.now()): number | undefined {
  if (value == null) return undefined;
  const trimmed = value.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Number(trimmed);
  const date = Date.parse(trimmed);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, (date - now) / 1000);
}
