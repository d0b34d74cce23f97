// Runtime-neutral entry point: Node 24, browsers and edge runtimes. Node-only transport lives in ./node.ts.

export { basicAuthorization, isLiveToken, isSandboxToken } from './auth.ts';
export {
  type AggregationClient,
  type ClientOptions,
  createClient,
  DEFAULT_BASE_URL,
  DEFAULT_TIMEOUT_MS,
} from './client.ts';
export { codeReason, codeStartsWith, codeTokens } from './codes.ts';
export type { ConnectionFailure } from './connection-failure.ts';
export {
  ENROLLMENT_SIGNATURE_ALGORITHM,
  type EnrollmentSignature,
  type EnrollmentSigningKey,
  enrollmentSignatureMessage,
  type SignedEnrollmentResult,
  type VerifyEnrollmentOptions,
  verifyEnrollmentSignature,
} from './enrollment-signatures.ts';
export {
  ENROLLMENT_STATUS_HEADER,
  type EnrollmentStatus,
  parseEnrollmentStatus,
  readEnrollmentStatus,
} from './enrollment-status.ts';
export {
  AggregationError,
  ApiError,
  AuthenticationError,
  apiErrorClassFor,
  BadGatewayError,
  BadRequestError,
  ConfigurationError,
  ConnectionError,
  ConnectionTimeoutError,
  disconnectReason,
  type ErrorCode,
  ErrorCodes,
  GatewayTimeoutError,
  GoneError,
  InternalServerError,
  isAccountClosed,
  isApiError,
  isEnrollmentDisconnected,
  isRateLimited,
  isValidationError,
  isVerificationExpired,
  isVerificationPending,
  NotFoundError,
  PaymentsNotSupportedError,
  PermissionDeniedError,
  RateLimitError,
  REQUEST_ID_HEADER,
  ServiceUnavailableError,
  UnprocessableEntityError,
} from './errors.ts';
export type { FetchLike } from './fetch-like.ts';
export { type IdempotencyKeyedPost, idempotencyKeyedPosts } from './idempotency.ts';
export { LOG_LEVEL_ENV, type LogDetails, type Logger, type LogLevel } from './logging.ts';
export {
  type AccountWithLinks,
  assertSupportsPayments,
  IDEMPOTENCY_KEY_HEADER,
  IDEMPOTENT_REPLAYED_HEADER,
  isMfaChallenge,
  type MfaRequired,
  newIdempotencyKey,
  type PayeeResult,
  type PaymentResult,
  supportsPayments,
} from './payments.ts';
export type { CallOptions } from './request.ts';
export type { CreatePaymentOptions } from './resources/payments.ts';
export type { TransactionSyncOptions } from './resources/transactions.ts';
export { getResponseInfo, type ResponseInfo } from './response-info.ts';
export {
  backoffDelay,
  createRetryingFetch,
  defaultRetryStatuses,
  isRetryable,
  type RetryInfo,
  type RetryOptions,
} from './retry.ts';
export { createSandboxClient, type SandboxClientOptions, type SandboxPaths } from './sandbox.ts';
export {
  type DateInput,
  DEFAULT_PAGE_SIZE,
  type IterateOptions,
  iteratePages,
  iterateTransactions,
  MAX_PAGE_SIZE,
  type PageFetcher,
  type PageQuery,
  reconcileTransactions,
  type SyncOptions,
  type SyncResult,
  type SyncState,
  syncTransactions,
  syncWindowStart,
  type TransactionLike,
} from './transactions.ts';
export type {
  Account,
  AccountBalances,
  AccountDetails,
  CreatePayeeRequest,
  CreatePaymentRequest,
  CurrentVersion,
  Entrypoint,
  ErrorBody,
  Institution,
  MfaChallenge,
  Paths,
  Payee,
  Payment,
  PaymentSchemes,
  Schemas,
  Transaction,
  TransactionQuery,
  Version,
  WebhookEvent,
  WebhookEventType,
} from './versions.ts';
export { currentVersion, versions } from './versions.ts';
export {
  constantTimeEqual,
  DEFAULT_TOLERANCE_SECONDS,
  parseSignatureHeader,
  type RawBody,
  SIGNATURE_HEADER,
  signWebhook,
  type VerifyWebhookOptions,
  verifyWebhook,
  WebhookVerificationError,
  type WebhookVerificationFailure,
  webhookEventTypes,
} from './webhooks.ts';
