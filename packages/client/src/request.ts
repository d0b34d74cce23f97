// The one typed request helper every resource module sends through. A named method gives the operation's method and
// path template (checked against the generated `paths` of every version) and its path parameters (checked against the
// template); the helper sends it on the client's openapi-fetch client and turns a response that is not 2xx into an
// ApiError.
import type { Client } from 'openapi-fetch';
import type { PathsWithMethod } from 'openapi-typescript-helpers';
import { ApiError } from './errors.ts';
import { IDEMPOTENCY_KEY_HEADER, idempotencyKeyedPosts } from './idempotency.ts';
import { attachResponse, describeResponse, type ResponseInfo } from './response-info.ts';
import type { CallSettings } from './retry.ts';
import type { Paths, Version } from './versions.ts';

/** What one call of a named method may set over its client's options. */
export type CallOptions = {
  /** Aborts the call; unlike a timeout, the abort is final and not retried. */
  signal?: AbortSignal;
  /** Extra headers of this call. */
  headers?: Record<string, string>;
  /** Per attempt, in ms, over the client's `timeout`; 0 disables. */
  timeout?: number;
  /** Retries after the first attempt, over the client's `maxRetries`; 0 sends once. */
  maxRetries?: number;
  /**
   * The `Idempotency-Key` of a POST that takes one (payments), instead of a fresh one: pass an earlier call's key to
   * repeat that same request. Other operations take no key and send none.
   */
  idempotencyKey?: string;
};

/** Sends one call with settings of its own (timeout, retries), as openapi-fetch's per-request `fetch`. */
export type SendWith = (call: CallSettings) => (request: Request) => Promise<Response>;

/** The methods the named operations use. */
export type Method = 'GET' | 'POST' | 'DELETE' | 'OPTIONS';

/** What is true of every member of a union of types: `Every<A | B>` is `A & B`. */
type Every<U> = (U extends unknown ? (every: U) => void : never) extends (every: infer I) => void ? I : never;

/**
 * The path templates that have `M` in every version: a named method works whichever version its client was made for,
 * so a path only one version has, or a misspelt one, does not compile. Each version's paths are wrapped in a tuple so
 * that `Every` intersects the versions' sets of paths, not the paths one by one.
 */
export type OperationPath<M extends Method> = Every<{ [V in Version]: [PathsWithMethod<Paths<V>, Lowercase<M>>] }[Version]>[0];

/** The parameter names of a path template: `'/accounts/{account_id}/payments/{payment_id}'` → `'account_id' | 'payment_id'`. */
type ParamNames<P extends string> = P extends `${string}{${infer Name}}${infer Rest}` ? Name | ParamNames<Rest> : never;

type Params<P extends string> = { query?: object } & ([ParamNames<P>] extends [never] ? { path?: never } : { path: Record<ParamNames<P>, string> });

/** openapi-fetch's init of one call: `params.path` is required, with exactly the template's names, when it has any. */
export type OperationInit<P extends string> = ([ParamNames<P>] extends [never] ? { params?: Params<P> } : { params: Params<P> }) & {
  body?: unknown;
  headers?: Record<string, string>;
};

type Sent = { data?: unknown; error?: unknown; response: Response };

/**
 * The typed requests of one client. `T`, the data's type, is the named method's declared result: it is not in the
 * arguments, so TypeScript takes it from where the result goes.
 */
export type ApiRequest = {
  /** The data and the response of a 2xx answer. */
  send<T, M extends Method, P extends OperationPath<M>>(
    method: M,
    path: P,
    init: OperationInit<P>,
    call?: CallOptions,
  ): Promise<{ data: T; response: Response }>;
  /** The data of a 2xx answer, with the response kept aside for `getResponseInfo`. */
  read<T, M extends Method, P extends OperationPath<M>>(method: M, path: P, init: OperationInit<P>, call?: CallOptions): Promise<T>;
  /** A bodyless 2xx answer (204), described. */
  empty<M extends Method, P extends OperationPath<M>>(method: M, path: P, init: OperationInit<P>, call?: CallOptions): Promise<ResponseInfo>;
};

/** The typed requests on `raw`, the client's openapi-fetch client (with its authentication, retries and middleware). */
export function createRequest<V extends Version>(raw: Client<Paths<V>>, sendWith: SendWith): ApiRequest {
  // openapi-fetch types a path and its init by the paths of `V`, which TypeScript cannot resolve for a version the
  // caller picks; OperationPath and OperationInit have already checked them against every version's.
  const client = raw as unknown as { request(method: Method, path: string, init: unknown): Promise<Sent> };

  async function send<T, M extends Method, P extends OperationPath<M>>(method: M, path: P, init: OperationInit<P>, call?: CallOptions) {
    const options = call ? callInit(method, path, init, call, sendWith) : init;
    const { data, error, response } = await client.request(method, path, options);
    if (!response.ok) throw ApiError.fromResponse(response, error, `${method} ${path}`);
    return { data: data as T, response };
  }

  return {
    send,
    async read<T, M extends Method, P extends OperationPath<M>>(method: M, path: P, init: OperationInit<P>, call?: CallOptions) {
      const { data, response } = await send<T, M, P>(method, path, init, call);
      return attachResponse(data, response);
    },
    async empty<M extends Method, P extends OperationPath<M>>(method: M, path: P, init: OperationInit<P>, call?: CallOptions) {
      const { response } = await send<unknown, M, P>(method, path, init, call);
      return describeResponse(response);
    },
  };
}

/** openapi-fetch's init of a call given options: its signal, headers, idempotency key, and a fetch for its own settings. */
function callInit(method: Method, path: string, init: { headers?: Record<string, string> | undefined }, call: CallOptions, sendWith: SendWith): object {
  const headers = { ...call.headers, ...init.headers };
  if (call.idempotencyKey !== undefined && method === 'POST' && (idempotencyKeyedPosts as readonly string[]).includes(path)) {
    headers[IDEMPOTENCY_KEY_HEADER] = call.idempotencyKey;
  }
  const options: { signal?: AbortSignal; headers: Record<string, string>; fetch?: (request: Request) => Promise<Response> } = { ...init, headers };
  if (call.signal) options.signal = call.signal;
  if (call.timeout !== undefined || call.maxRetries !== undefined) options.fetch = sendWith({ timeoutMs: call.timeout, maxRetries: call.maxRetries });
  return options;
}

/** An empty id would turn `/accounts/{account_id}` into `/accounts/`, a different operation. */
export function requireId(id: string, name: string): string {
  if (typeof id !== 'string' || id === '') throw new TypeError(`${name} must be a non-empty string`);
  return id;
}
