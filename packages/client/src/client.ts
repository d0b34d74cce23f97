// createClient: the raw openapi-fetch client typed by the chosen version's `paths`, and the resource modules
// (resources/) over the one typed request helper (request.ts) that sends on it: they turn error responses into
// ApiError, MFA answers into a distinct result, and pages into iterators.
import createFetchClient, { type Client } from 'openapi-fetch';
import { authorizedRequest, checkToken } from './auth.ts';
import { type EnrollmentStatus, readEnrollmentStatus } from './enrollment-status.ts';
import { ConfigurationError } from './errors.ts';
import type { FetchLike } from './fetch-like.ts';
import { ensureIdempotencyKey } from './idempotency.ts';
import { type LogDetails, type Logger, type LogLevel, loggedSend, resolveLogLevel } from './logging.ts';
import { createRequest } from './request.ts';
import { type AccountsResource, accountsResource, KnownAccountLinks } from './resources/accounts.ts';
import { type EntrypointResource, entrypointResource } from './resources/entrypoint.ts';
import { type InstitutionsResource, institutionsResource } from './resources/institutions.ts';
import { type PayeesResource, payeesResource } from './resources/payees.ts';
import { type PaymentsResource, paymentsResource } from './resources/payments.ts';
import { type TransactionsResource, transactionsResource } from './resources/transactions.ts';
import { type CallSettings, createRetryingSend, type RetryOptions } from './retry.ts';
import { signalTransport, type Transport } from './transport.ts';
import { type CurrentVersion, type Paths, type Version, versions } from './versions.ts';

/** Used when no `baseUrl` is given: the `servers` entry of the description. */
export const DEFAULT_BASE_URL = 'http://localhost:3000';
export const DEFAULT_TIMEOUT_MS = 60_000;

export type ClientOptions<V extends Version = CurrentVersion> = {
  /** Access token: `test_token_...` (sandbox) or `token_...` (live, needs mutual TLS). */
  token: string;
  /**
   * API version sent as `Service-Version`; it also selects the types. Without it no header is sent (the
   * service uses the application's default version) and the types are those of 2020-10-12.
   */
  version?: V;
  baseUrl?: string;
  /**
   * Replaces the global fetch: a test double, an in-process app's `fetch`, a runtime's mTLS binding. It is called
   * with the Request and `{ signal }`, the attempt's signal: a fetch that wraps another passes both on.
   */
  fetch?: FetchLike;
  /** Set when `fetch` presents a TLS client certificate, which live tokens require. */
  mutualTls?: boolean;
  /**
   * Per attempt, in ms, until the response's status and headers arrive (not its body); 0 disables. Default 60 s. A
   * custom `fetch` is given each attempt's signal; Node's own fetch, from the Node entry, undici's headers timeout.
   * A call's `timeout` overrides it.
   */
  timeout?: number;
  /** @deprecated The same as `timeout`, which wins when both are given. */
  timeoutMs?: number;
  /** Retries of a call after its first attempt (reads, deletes, POSTs with an Idempotency-Key). Default 2; a call's `maxRetries` overrides it. */
  maxRetries?: number;
  /** How retries wait and on what (backoff, `Retry-After` cap, statuses, `onRetry`); `false` turns retries off. */
  retry?: RetryOptions | false;
  /** Where log lines go, each with its details (method, path, status, ...) as a second argument. Default: the console. */
  logger?: Logger;
  /** `off`, `error`, `warn`, `info` or `debug`. Default: the `AGGREGATION_LOG` environment variable where the runtime has one, else `off`. */
  logLevel?: LogLevel;
  /** Extra headers on every request. */
  headers?: Record<string, string>;
  /** Called with the `Service-Enrollment-Status` of every response that carries it. */
  onEnrollmentStatus?: (status: EnrollmentStatus, response: Response) => void;
};

export type AggregationClient<V extends Version = CurrentVersion> = {
  /** The version sent as `Service-Version`, if one was chosen. */
  readonly version: V | undefined;
  /** The openapi-fetch client, with the same authentication, version header, idempotency keys, retries, timeout and log. */
  readonly raw: Client<Paths<V>>;
  /** The last `Service-Enrollment-Status` seen on any response of this client. */
  readonly enrollmentStatus: EnrollmentStatus | undefined;

  accounts: AccountsResource<V>;
  transactions: TransactionsResource<V>;
  payees: PayeesResource<V>;
  payments: PaymentsResource<V>;
  institutions: InstitutionsResource<V>;
  /** `GET /`: links to the top-level collections (`accounts`, `institutions`); needs no token. */
  entrypoint: EntrypointResource<V>;
};

export function createClient<V extends Version = CurrentVersion>(options: ClientOptions<V>): AggregationClient<V> {
  return createClientWith(options);
}

const globalFetch: FetchLike = (request, init) => globalThis.fetch(request, init);

/** The default logger: each line on the console, alone, or with its details (headers included) at `debug`. */
function consoleLogger(withDetails: boolean): Logger {
  const to =
    (write: (...data: unknown[]) => void) =>
    (message: string, details?: LogDetails): void =>
      withDetails ? write(message, details) : write(message);
  return { error: to(console.error), warn: to(console.warn), info: to(console.info), debug: to(console.debug) };
}

/**
 * The client, sending through `platform` when no `fetch` is given (the Node entry's transport for Node's own fetch);
 * a given `fetch`, and the global one without a platform transport, are called with each attempt's signal.
 */
export function createClientWith<V extends Version = CurrentVersion>(options: ClientOptions<V>, platform?: Transport): AggregationClient<V> {
  checkToken(options.token, options.mutualTls === true);
  if (options.version !== undefined && !(versions as readonly string[]).includes(options.version)) {
    throw new ConfigurationError(`Unknown version ${String(options.version)}; known: ${versions.join(', ')}`);
  }

  const transport = options.fetch || !platform ? signalTransport(options.fetch ?? globalFetch) : platform;
  const retrying = createRetryingSend(transport.send, {
    ...(options.retry === false ? { maxRetries: 0 } : options.retry),
    ...(options.retry !== false && options.maxRetries !== undefined ? { maxRetries: options.maxRetries } : {}),
    timeoutMs: options.timeout ?? options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
  });
  const logLevel = resolveLogLevel(options.logLevel, options.logger ?? consoleLogger(false));
  const logged = loggedSend(retrying, options.logger ?? consoleLogger(logLevel === 'debug'), logLevel);
  let lastEnrollmentStatus: EnrollmentStatus | undefined;
  // Read as the fetch returns each response (after any retries): a middleware would cost a middleware pass per call.
  const noteEnrollmentStatus = (response: Response) => {
    const status = readEnrollmentStatus(response);
    if (status) {
      lastEnrollmentStatus = status;
      options.onEnrollmentStatus?.(status, response);
    }
    return response;
  };
  /** One call: its key when it takes one, its attempts, its log lines. */
  const send = (request: Request, call?: CallSettings) => {
    if (request.method === 'POST') ensureIdempotencyKey(request);
    return (logged ?? retrying)(request, call).then(noteEnrollmentStatus);
  };
  const headers: Record<string, string> = { ...options.headers };
  if (options.version) headers['Service-Version'] = options.version;

  const raw = createFetchClient<Paths<V>>({
    baseUrl: options.baseUrl ?? DEFAULT_BASE_URL,
    fetch: (request: Request) => send(request),
    headers,
    // Each Request is built with the token's Authorization, of the transport's class (which may keep the caller's
    // signal apart, to time attempts out without copying the Request).
    Request: authorizedRequest(options.token, transport.Request),
  });
  const request = createRequest(raw, (call) => (request) => send(request, call));
  const known = new KnownAccountLinks();
  const accounts = accountsResource<V>(request, known);

  return {
    version: options.version,
    raw,
    get enrollmentStatus() {
      return lastEnrollmentStatus;
    },
    accounts,
    transactions: transactionsResource<V>(request),
    payees: payeesResource<V>(request),
    payments: paymentsResource<V>(request, known, accounts),
    institutions: institutionsResource<V>(request),
    entrypoint: entrypointResource<V>(request),
  };
}
