// Builds the application: storage, domain dependencies, the webhook delivery worker and the
// Hono app with its middleware and routes. The result is the Hono app itself (its `fetch`
// serves requests in-process) plus handles to close it.

import type { IncomingMessage, ServerResponse } from 'node:http';
import type { LookupFunction } from 'node:net';
import { docsApp } from '@aggregation/docs';
import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { RequestValidator } from './contract/requests.ts';
import { applicationById, versionOf } from './domain/applications.ts';
import { DAY_MS, type Now } from './domain/clock.ts';
import type { Deps } from './domain/context.ts';
import { ApiError } from './domain/errors.ts';
import type { EventType } from './domain/events.ts';
import { NO_LIMITS, type SandboxLimits } from './domain/limits.ts';
import { signingSecrets } from './domain/webhooks.ts';
import type { AppEnv, Runtime } from './http/env.ts';
import { errorResponse, notFoundResponse } from './http/middleware/errors.ts';
import { addressCaller, limitRate, type RateLimit, rateLimitByAddress, TokenBuckets } from './http/middleware/rate-limit.ts';
import { MAX_BODY_BYTES, type Validators } from './http/middleware/validate.ts';
import { VERSION_HEADER, versionMiddleware } from './http/middleware/version.ts';
import { ReadCache, type ReadCacheOptions, readCacheKey, replay } from './http/read-cache.ts';
import { newRequestId, REQUEST_ID_HEADER } from './http/request-id.ts';
import { RequestLog, requestLogScope } from './http/request-log.ts';
import { router } from './http/router.ts';
import { accountRoutes } from './http/routes/accounts.ts';
import { entrypointRoutes } from './http/routes/entrypoint.ts';
import { institutionRoutes } from './http/routes/institutions.ts';
import { paymentRoutes } from './http/routes/payments.ts';
import { LOGS_PATH, sandboxRoutes } from './http/routes/sandbox.ts';
import { transactionRoutes } from './http/routes/transactions.ts';
import { DEFAULT_MAX_HISTORY, MAX_HISTORY } from './sandbox/users.ts';
import { openStore } from './storage/index.ts';
import type { EnrollmentRow, EventRow, Store } from './storage/store.ts';
import { CURRENT_VERSION, isVersion, rewriteEventPayload, VERSIONS } from './versions/index.ts';
import { guardedFetch, type TargetPolicy } from './webhooks/targets.ts';
import { DeliveryWorker, defaultRetry, type RetryPolicy } from './webhooks/worker.ts';

export interface WebhookOptions {
  /** Start delivering at once (default true). */
  autostart?: boolean;
  retry?: Partial<RetryPolicy>;
  /** Per attempt (default 10 s). */
  timeoutMs?: number;
  /** Longest sleep between outbox checks (default 1 s). */
  pollMs?: number;
  /** How long a claimed delivery stays out of other workers' reach (default: the timeout plus a minute). */
  leaseMs?: number;
  concurrency?: number;
  /** Version of every event payload (default: the default version of each event's application). */
  version?: string;
  /** Sends deliveries instead of the guarded fetch (which refuses what `webhookTargets` refuses, after resolution). */
  fetch?: typeof fetch;
  /** Resolves host names for deliveries (default: the system's resolver); tests give a stub. */
  lookup?: LookupFunction;
}

export interface AppOptions {
  /** An open store; otherwise one is opened on `databaseUrl` or `databasePath`. */
  store?: Store;
  /**
   * `postgres://...`: PostgreSQL, which several server processes may share (behind a load
   * balancer). Takes precedence over `databasePath`.
   */
  databaseUrl?: string;
  /** SQLite file, or ':memory:' (the default). */
  databasePath?: string;
  /** Serve the sandbox control API (default true). */
  sandbox?: boolean;
  /** The default version of the default application and of new applications (default: the current version). */
  defaultVersion?: string;
  /**
   * Enrollments made without an application key belong to the default application (default
   * true). false for a hosted sandbox: each developer creates an application first.
   */
  defaultApplication?: boolean;
  /** What one client address or application may create (default: no limits). */
  limits?: Partial<SandboxLimits>;
  /** Which webhook URLs may be set and delivered to (default: loopback and private addresses allowed). */
  webhookTargets?: TargetPolicy;
  /**
   * Absolute base of links; default: the origin of each request (webhook payloads: the address startServer listens
   * on, or http://localhost:3000 in-process).
   */
  publicUrl?: string;
  /** Real time (tests may drive it). */
  now?: Now;
  /** Enrollment-clock delay before enrichment completes (default one day). */
  enrichDelayMs?: number;
  /** Largest `n` of the sandbox users `history.<n>` (default 100,000; at most 1,000,000). */
  maxHistory?: number;
  webhooks?: WebhookOptions;
  /** Per-caller request rate limit; false (the default) for none. */
  rateLimit?: RateLimit | false;
  /** Unexpected errors go here (default console.error). */
  logError?: (error: unknown) => void;
  /** One line per request (method, path, status, duration, version, request id); none by default. */
  accessLog?: (line: string) => void;
  /**
   * Replay rendered reads at the HTTP edge until a write or the enrollment's clock changes them
   * (default on; see http/read-cache.ts). In-process `fetch` always runs the handlers. Always off
   * on a store that cannot see other processes' writes (PostgreSQL): a replay could be stale.
   */
  readCache?: ReadCacheOptions | false;
}

export interface AppHandles {
  runtime: Runtime;
  store: Store;
  worker: DeliveryWorker;
  /** Replayed reads; undefined when turned off. */
  readCache: ReadCache | undefined;
  /**
   * For the Node server, before the app: answers a GET from the read cache when it can, else
   * hands the request, untouched, to `pass` (at once, or once the kept response proves stale).
   */
  serveCached(incoming: IncomingMessage, outgoing: ServerResponse, pass: () => void): void;
  /** The request log's streams (`GET /sandbox/logs`). */
  requestLog: RequestLog;
  /** Stops the worker (waiting for attempts in flight) and closes the store if the app opened it. */
  close(): Promise<void>;
}

export type App = Hono<AppEnv> & AppHandles;

function loadValidators(sandbox: boolean): Validators {
  try {
    return {
      api: new Map(VERSIONS.map((version) => [version, RequestValidator.forDocument(version)])),
      sandbox: sandbox ? RequestValidator.forDocument('sandbox') : undefined,
    };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    throw new Error('The bundled description is missing (openapi/dist); build it first: npm run build -w @aggregation/openapi', {
      cause: error,
    });
  }
}

/** What the access log and the request log say of a request once it is answered. */
interface FinishedRequest {
  method: string;
  path: string;
  status: number;
  /** `performance.now()` when it arrived. */
  started: number;
  version: string | null;
  requestId: string;
  /** The request log's scope (`requestLogScope`); undefined when no token named one. */
  scope: string | undefined;
  /** Answered by the read cache. */
  replayed: boolean;
}

const BODYLESS = new Set(['GET', 'HEAD', 'OPTIONS', 'DELETE']);

export function createApp(options: AppOptions = {}): App {
  const defaultVersion = options.defaultVersion ?? CURRENT_VERSION;
  if (!isVersion(defaultVersion)) throw new Error(`unknown default version ${defaultVersion}; known: ${VERSIONS.join(', ')}`);
  const ownsStore = options.store === undefined;
  const store = options.store ?? openStore({ path: options.databasePath ?? ':memory:', url: options.databaseUrl });
  const now = options.now ?? Date.now;
  const logError = options.logError ?? ((error: unknown) => console.error(error));
  const sandbox = options.sandbox ?? true;
  const webhookTargets = options.webhookTargets ?? { allowPrivate: true };

  let worker: DeliveryWorker | undefined;
  const requestLog = new RequestLog();
  const transport = guardedFetch(webhookTargets, options.webhooks?.lookup);
  const deps: Deps = {
    store,
    now,
    publicUrl: (options.publicUrl ?? 'http://localhost:3000').replace(/\/$/, ''),
    enrichDelayMs: options.enrichDelayMs ?? DAY_MS,
    maxHistory: Math.min(options.maxHistory ?? DEFAULT_MAX_HISTORY, MAX_HISTORY),
    onEvents: () => worker?.wake(),
  };

  // Each event in its application's version at the time it is sent.
  const render = async (event: EventRow): Promise<string> => {
    const version = options.webhooks?.version ?? versionOf(await applicationById(deps, event.application_id), defaultVersion);
    const payload = await rewriteEventPayload(version, event.type as EventType, JSON.parse(event.payload), {
      details: async () => null,
    });
    return JSON.stringify({ id: event.id, type: event.type, timestamp: event.timestamp, payload });
  };
  worker = new DeliveryWorker({
    store,
    now,
    render,
    secrets: (applicationId) => signingSecrets(deps, applicationId),
    retry: { ...defaultRetry, ...options.webhooks?.retry },
    timeoutMs: options.webhooks?.timeoutMs ?? 10_000,
    pollMs: options.webhooks?.pollMs ?? 1_000,
    concurrency: options.webhooks?.concurrency ?? 4,
    ...(options.webhooks?.leaseMs ? { leaseMs: options.webhooks.leaseMs } : {}),
    fetch: options.webhooks?.fetch ?? transport.fetch,
    onError: logError,
  });

  const buckets = options.rateLimit ? new TokenBuckets(options.rateLimit, now) : undefined;
  const runtime: Runtime = {
    deps,
    defaultVersion,
    sandbox,
    rateLimit: buckets,
    requestLog,
    defaultApplication: options.defaultApplication ?? true,
    limits: { ...NO_LIMITS, ...options.limits },
    webhookTargets,
  };
  const app = new Hono<AppEnv>();
  const accessLog = options.accessLog;
  /** The access log's line and the request log's entry of a finished request. */
  const observe = (done: FinishedRequest) => {
    const durationMs = performance.now() - done.started;
    const { method, path, status, requestId, replayed } = done;
    accessLog?.(`${method} ${path} ${status} ${durationMs.toFixed(1)}ms ${done.version ?? ''} ${requestId}${replayed ? ' (replayed)' : ''}`);
    if (requestLog.listening && path !== LOGS_PATH) {
      requestLog.record(done.scope, {
        time: new Date().toISOString(),
        method,
        path,
        status,
        duration_ms: Math.round(durationMs * 10) / 10,
        request_id: requestId,
        replayed,
      });
    }
  };
  app.use(async (c, next) => {
    const started = performance.now();
    const requestId = newRequestId();
    c.set('requestId', requestId);
    c.header(REQUEST_ID_HEADER, requestId);
    await next();
    if (!accessLog && !requestLog.listening) return;
    observe({
      method: c.req.method,
      path: c.req.path,
      status: c.res.status,
      started,
      version: c.res.headers.get(VERSION_HEADER),
      requestId,
      scope: requestLogScope(c.get('enrollment') as EnrollmentRow | undefined),
      replayed: false,
    });
  });
  const validators = loadValidators(sandbox);
  const documented = [...validators.api.values()].slice(0, 1).concat(validators.sandbox ? [validators.sandbox] : []);
  app.onError((error, c) => errorResponse(c, error, logError));
  const answerNotFound = notFoundResponse((path) => documented.flatMap((validator) => validator.contract.allowedMethods(path)));
  // Requests no route takes count against the client address like unauthenticated ones.
  app.notFound((c) => {
    try {
      limitRate(buckets, addressCaller(c.env?.incoming));
    } catch (error) {
      return errorResponse(c, error, logError);
    }
    return answerNotFound(c);
  });
  app.use(versionMiddleware(defaultVersion, options.publicUrl?.replace(/\/$/, '')));
  const limitBody = bodyLimit({
    maxSize: MAX_BODY_BYTES,
    onError: () => {
      throw new ApiError(413, 'payload_too_large', 'The request body is too large.');
    },
  });
  // Only methods that carry a body: bodyLimit reads `c.req.raw.body`, which makes the adapter build a
  // full Request (with an abort signal) per request, a large share of a GET's cost and of its garbage.
  app.use((c, next) => (BODYLESS.has(c.req.method) ? next() : limitBody(c, next)));

  const readCache = options.readCache === false || !store.seesOtherWriters ? undefined : new ReadCache(store, now, options.readCache);
  const r = router(app, runtime, validators, readCache);
  entrypointRoutes(r, runtime);
  institutionRoutes(r, runtime);
  accountRoutes(r, runtime);
  transactionRoutes(r, runtime);
  paymentRoutes(r, runtime);
  if (sandbox) sandboxRoutes(r, runtime);
  // The rendered reference of every document, next to the API it describes.
  if (buckets) app.use('/docs/*', rateLimitByAddress(runtime));
  app.route('/docs', docsApp());

  if (options.webhooks?.autostart !== false) worker.start();

  const serveCached = (incoming: IncomingMessage, outgoing: ServerResponse, pass: () => void): void => {
    const key = readCache && readCacheKey(incoming);
    if (!key) {
      pass();
      return;
    }
    const started = performance.now();
    const kept = readCache!.check(key, incoming, (entry) => {
      // A caller out of tokens goes to the app, which answers the 429.
      if (!entry || buckets?.take(entry.caller ?? addressCaller(incoming)) !== undefined) return pass();
      const requestId = newRequestId();
      replay(entry, outgoing, requestId);
      if (accessLog || requestLog.listening) {
        observe({
          method: 'GET',
          path: incoming.url!.split('?', 1)[0]!,
          status: 200,
          started,
          version: String(entry.headers[VERSION_HEADER.toLowerCase()] ?? ''),
          requestId,
          scope: entry.scope,
          replayed: true,
        });
      }
    });
    if (!kept) pass();
  };

  const handles: AppHandles = {
    runtime,
    store,
    worker,
    readCache,
    serveCached,
    requestLog,
    async close() {
      requestLog.close();
      await worker.stop();
      await transport.close();
      if (ownsStore) await store.close();
    },
  };
  return Object.assign(app, handles);
}
