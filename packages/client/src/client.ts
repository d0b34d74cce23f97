// createClient: the raw openapi-fetch client typed by the chosen version's `paths`, plus named methods that turn
// error responses into ApiError, MFA answers into a distinct result, and pages into iterators.
import createFetchClient, { type Client } from 'openapi-fetch';
import { authorizedRequest, checkToken } from './auth.ts';
import { type EnrollmentStatus, readEnrollmentStatus } from './enrollment-status.ts';
import { ApiError, ConfigurationError } from './errors.ts';
import type { FetchLike } from './fetch-like.ts';
import {
  type AccountWithLinks,
  assertSupportsPayments,
  IDEMPOTENCY_KEY_HEADER,
  IDEMPOTENT_REPLAYED_HEADER,
  isMfaChallenge,
  newIdempotencyKey,
  type PayeeResult,
  type PaymentResult,
} from './payments.ts';
import { attachResponse, describeResponse, type ResponseInfo } from './response-info.ts';
import { createRetryingSend, type RetryOptions } from './retry.ts';
import {
  type IterateOptions,
  iteratePages,
  iterateTransactions,
  type PageFetcher,
  type PageQuery,
  type SyncOptions,
  type SyncResult,
  syncTransactions,
  type TransactionLike,
} from './transactions.ts';
import { signalTransport, type Transport } from './transport.ts';
import {
  type Account,
  type AccountBalances,
  type AccountDetails,
  type CreatePayeeRequest,
  type CreatePaymentRequest,
  type CurrentVersion,
  type Entrypoint,
  type Institution,
  type Paths,
  type Payment,
  type PaymentSchemes,
  type Transaction,
  type TransactionQuery,
  type Version,
  versions,
} from './versions.ts';

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
  /** Retry policy of idempotent requests; `false` turns retries off. */
  retry?: RetryOptions | false;
  /**
   * Per attempt, until the response's status and headers arrive (not its body); 0 disables. Default 60 s. A custom
   * `fetch` is given each attempt's signal; Node's own fetch, from the Node entry, undici's headers timeout.
   */
  timeoutMs?: number;
  /** Extra headers on every request. */
  headers?: Record<string, string>;
  /** Called with the `Service-Enrollment-Status` of every response that carries it. */
  onEnrollmentStatus?: (status: EnrollmentStatus, response: Response) => void;
};

export type CallOptions = { signal?: AbortSignal; headers?: Record<string, string> };

export type CreatePaymentOptions = CallOptions & {
  /** Defaults to a fresh UUID per call. Pass the key of an earlier attempt to retry that same payment. */
  idempotencyKey?: string;
  /**
   * When `account` is an id and its links are not known yet, the account is fetched first to check that it
   * supports payments. Default true.
   */
  checkAccount?: boolean;
};

export type TransactionSyncOptions<V extends Version> = SyncOptions<Transaction<V> & TransactionLike>;

export type AggregationClient<V extends Version = CurrentVersion> = {
  /** The version sent as `Service-Version`, if one was chosen. */
  readonly version: V | undefined;
  /** The openapi-fetch client, with the same authentication, version header, retries and timeout. */
  readonly raw: Client<Paths<V>>;
  /** The last `Service-Enrollment-Status` seen on any response of this client. */
  readonly enrollmentStatus: EnrollmentStatus | undefined;

  accounts: {
    list(options?: CallOptions): Promise<Account<V>[]>;
    get(accountId: string, options?: CallOptions): Promise<Account<V>>;
    /** Removes this application's access to one account (204). */
    delete(accountId: string, options?: CallOptions): Promise<ResponseInfo>;
    /** Removes access to every account of the token's enrollment (204). */
    deleteAll(options?: CallOptions): Promise<ResponseInfo>;
    /** Account and routing numbers; 404 while microdeposit verification is pending or expired. */
    details(accountId: string, options?: CallOptions): Promise<AccountDetails<V>>;
    balances(accountId: string, options?: CallOptions): Promise<AccountBalances<V>>;
  };
  transactions: {
    /** One page, exactly as the query asks. */
    list(accountId: string, query?: TransactionQuery<V>, options?: CallOptions): Promise<Transaction<V>[]>;
    get(accountId: string, transactionId: string, options?: CallOptions): Promise<Transaction<V>>;
    /** Every transaction of a date range, paging with `count` and `from_id`. */
    iterate(accountId: string, options?: IterateOptions): AsyncGenerator<Transaction<V>, void, undefined>;
    /** The same walk, a page at a time. */
    pages(accountId: string, options?: IterateOptions): AsyncGenerator<Transaction<V>[], void, undefined>;
    /** Reads the window since the last sync and reconciles it with the stored transactions. */
    sync(accountId: string, options?: TransactionSyncOptions<V>): Promise<SyncResult<Transaction<V>>>;
  };
  payees: {
    create(accountId: string, payee: CreatePayeeRequest<V>, options?: CallOptions): Promise<PayeeResult<V>>;
  };
  payments: {
    /** `OPTIONS /accounts/{account_id}/payments`: the schemes the account can pay with. */
    schemes(accountId: string, options?: CallOptions): Promise<PaymentSchemes<V>>;
    /**
     * Sends a payment with an `Idempotency-Key`. Refuses accounts whose links have no `payments`
     * ({@link PaymentsNotSupportedError}). Resolves to a payment or to an MFA challenge.
     */
    create(account: string | AccountWithLinks, payment: CreatePaymentRequest<V>, options?: CreatePaymentOptions): Promise<PaymentResult<V>>;
    list(accountId: string, options?: CallOptions): Promise<Payment<V>[]>;
    get(accountId: string, paymentId: string, options?: CallOptions): Promise<Payment<V>>;
  };
  institutions: {
    list(options?: CallOptions): Promise<Institution<V>[]>;
  };
  /** `GET /`: links to the top-level collections (`accounts`, `institutions`); needs no token. */
  entrypoint(options?: CallOptions): Promise<Entrypoint<V>>;
};

type Method = 'GET' | 'POST' | 'DELETE' | 'OPTIONS';
type LooseInit = {
  params?: { path?: Record<string, string>; query?: Record<string, unknown> };
  body?: unknown;
  headers?: Record<string, string>;
  signal?: AbortSignal;
};
type LooseClient = { request(method: string, url: string, init?: LooseInit): Promise<{ data?: unknown; error?: unknown; response: Response }> };

export function createClient<V extends Version = CurrentVersion>(options: ClientOptions<V>): AggregationClient<V> {
  return createClientWith(options);
}

const globalFetch: FetchLike = (request, init) => globalThis.fetch(request, init);

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
  const { Request: BaseRequest, send: sendAttempt } = transport(options.timeoutMs ?? DEFAULT_TIMEOUT_MS);
  const retryingFetch = createRetryingSend(sendAttempt, options.retry === false ? { maxRetries: 0 } : options.retry);
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
  const headers: Record<string, string> = { ...options.headers };
  if (options.version) headers['Service-Version'] = options.version;

  const raw = createFetchClient<Paths<V>>({
    baseUrl: options.baseUrl ?? DEFAULT_BASE_URL,
    fetch: (request: Request) => retryingFetch(request).then(noteEnrollmentStatus),
    headers,
    // Each Request is built with the token's Authorization, of the transport's class (which may keep the caller's
    // signal apart, to time attempts out without copying the Request).
    Request: authorizedRequest(options.token, BaseRequest),
  });
  const loose = raw as unknown as LooseClient;

  // Links learned from account reads, so a payment after `accounts.list` needs no extra request for its guard.
  const paymentsCapability = new Map<string, boolean>();
  const remember = (account: unknown) => {
    const candidate = account as Partial<AccountWithLinks> | undefined;
    if (typeof candidate?.id === 'string' && candidate.links) {
      paymentsCapability.set(candidate.id, typeof candidate.links.payments === 'string');
    }
  };

  function send(method: Method, path: string, init: LooseInit, call?: CallOptions) {
    if (call) init = { ...init, ...(call.signal ? { signal: call.signal } : {}), headers: { ...call.headers, ...init.headers } };
    return loose.request(method, path, init);
  }

  /** The result's data, or the ApiError of a response that is not 2xx. */
  function succeeded(result: Awaited<ReturnType<typeof send>>, method: Method, path: string) {
    if (!result.response.ok) throw ApiError.fromResponse(result.response, result.error, `${method} ${path}`);
    return result;
  }

  async function read<T>(method: Method, path: string, init: LooseInit, call?: CallOptions): Promise<T> {
    const { data, response } = succeeded(await send(method, path, init, call), method, path);
    return attachResponse(data as T, response);
  }

  async function empty(method: Method, path: string, init: LooseInit, call?: CallOptions): Promise<ResponseInfo> {
    const { response } = succeeded(await send(method, path, init, call), method, path);
    return describeResponse(response);
  }

  const account = (accountId: string) => ({ path: { account_id: requireId(accountId, 'accountId') } });

  const pageFetcher =
    (accountId: string): PageFetcher<Transaction<V> & TransactionLike> =>
    (query: PageQuery, signal?: AbortSignal) =>
      read('GET', '/accounts/{account_id}/transactions', { params: { ...account(accountId), query } }, signal ? { signal } : undefined);

  const client: AggregationClient<V> = {
    version: options.version,
    raw,
    get enrollmentStatus() {
      return lastEnrollmentStatus;
    },

    accounts: {
      async list(call) {
        const accounts = await read<Account<V>[]>('GET', '/accounts', {}, call);
        if (Array.isArray(accounts)) accounts.forEach(remember);
        return accounts;
      },
      async get(accountId, call) {
        const result = await read<Account<V>>('GET', '/accounts/{account_id}', { params: account(accountId) }, call);
        remember(result);
        return result;
      },
      delete: async (accountId, call) => empty('DELETE', '/accounts/{account_id}', { params: account(accountId) }, call),
      deleteAll: async (call) => empty('DELETE', '/accounts', {}, call),
      details: async (accountId, call) => read('GET', '/accounts/{account_id}/details', { params: account(accountId) }, call),
      balances: async (accountId, call) => read('GET', '/accounts/{account_id}/balances', { params: account(accountId) }, call),
    },

    transactions: {
      list: async (accountId, query, call) =>
        read('GET', '/accounts/{account_id}/transactions', { params: { ...account(accountId), query: query ?? {} } }, call),
      get: async (accountId, transactionId, call) =>
        read(
          'GET',
          '/accounts/{account_id}/transactions/{transaction_id}',
          { params: { path: { ...account(accountId).path, transaction_id: requireId(transactionId, 'transactionId') } } },
          call,
        ),
      iterate: (accountId, iterateOptions) => iterateTransactions(pageFetcher(accountId), iterateOptions),
      pages: (accountId, iterateOptions) => iteratePages(pageFetcher(accountId), iterateOptions),
      sync: async (accountId, syncOptions) => syncTransactions(pageFetcher(accountId), syncOptions),
    },

    payees: {
      async create(accountId, payee, call) {
        const path = '/accounts/{account_id}/payees';
        const { data, response } = succeeded(await send('POST', path, { params: account(accountId), body: payee }, call), 'POST', path);
        if (isMfaChallenge(data)) {
          return { kind: 'mfa', connectToken: data.connect_token, challenge: attachResponse(data, response) } as PayeeResult<V>;
        }
        return { kind: 'payee', payee: attachResponse(data, response) } as PayeeResult<V>;
      },
    },

    payments: {
      schemes: async (accountId, call) => read('OPTIONS', '/accounts/{account_id}/payments', { params: account(accountId) }, call),
      async create(target, payment, call = {}) {
        const accountId = typeof target === 'string' ? target : target.id;
        if (typeof target !== 'string') {
          assertSupportsPayments(target);
        } else if (paymentsCapability.has(accountId)) {
          if (!paymentsCapability.get(accountId)) assertSupportsPayments({ id: accountId, links: {} });
        } else if (call.checkAccount !== false) {
          assertSupportsPayments((await client.accounts.get(accountId, call)) as unknown as AccountWithLinks);
        }
        const idempotencyKey = call.idempotencyKey ?? headerValue(call.headers, IDEMPOTENCY_KEY_HEADER) ?? newIdempotencyKey();
        // The key is a header of the one Request object; every retry sends a clone of it, key included.
        const path = '/accounts/{account_id}/payments';
        const init = { params: account(accountId), body: payment, headers: { [IDEMPOTENCY_KEY_HEADER]: idempotencyKey } };
        const { data, response } = succeeded(await send('POST', path, init, call), 'POST', path);
        if (isMfaChallenge(data)) {
          return {
            kind: 'mfa',
            connectToken: data.connect_token,
            challenge: attachResponse(data, response),
            idempotencyKey,
          } as PaymentResult<V>;
        }
        return {
          kind: 'payment',
          payment: attachResponse(data, response),
          status: response.status,
          idempotencyKey,
          replayed: response.headers.get(IDEMPOTENT_REPLAYED_HEADER) === 'true',
        } as PaymentResult<V>;
      },
      list: async (accountId, call) => read('GET', '/accounts/{account_id}/payments', { params: account(accountId) }, call),
      get: async (accountId, paymentId, call) =>
        read(
          'GET',
          '/accounts/{account_id}/payments/{payment_id}',
          { params: { path: { ...account(accountId).path, payment_id: requireId(paymentId, 'paymentId') } } },
          call,
        ),
    },

    institutions: {
      list: async (call) => read('GET', '/institutions', {}, call),
    },

    entrypoint: async (call) => read('GET', '/', {}, call),
  };
  return client;
}

/** An empty id would turn `/accounts/{account_id}` into `/accounts/`, a different operation. */
function requireId(id: string, name: string): string {
  if (typeof id !== 'string' || id === '') throw new TypeError(`${name} must be a non-empty string`);
  return id;
}

function headerValue(headers: Record<string, string> | undefined, name: string): string | undefined {
  if (!headers) return undefined;
  const key = Object.keys(headers).find((candidate) => candidate.toLowerCase() === name.toLowerCase());
  return key === undefined ? undefined : headers[key];
}
