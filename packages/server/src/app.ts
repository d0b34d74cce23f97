// Builds the application: storage, domain dependencies, the webhook delivery worker and the
// Hono app with its middleware and routes. The result is the Hono app itself (its `fetch`
// serves requests in-process) plus handles to close it.
import { docsApp } from '@aggregation/docs';
import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { RequestValidator } from './contract/requests.ts';
import { DAY_MS, type Now } from './domain/clock.ts';
import type { Deps } from './domain/context.ts';
import { ApiError } from './domain/errors.ts';
import type { EventType } from './domain/events.ts';
import { activeSecrets, ensureSigningSecret } from './domain/webhooks.ts';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AppEnv, Runtime } from './http/env.ts';
import { errorResponse, notFoundResponse } from './http/middleware/errors.ts';
import { callerOf, rateLimit, TokenBuckets, type RateLimit } from './http/middleware/rate-limit.ts';
import { MAX_BODY_BYTES, type Validators } from './http/middleware/validate.ts';
import { VERSION_HEADER, versionMiddleware } from './http/middleware/version.ts';
import { ReadCache, readCacheKey, replay, type ReadCacheOptions } from './http/read-cache.ts';
import { router } from './http/router.ts';
import { accountRoutes } from './http/routes/accounts.ts';
import { institutionRoutes } from './http/routes/institutions.ts';
import { paymentRoutes } from './http/routes/payments.ts';
import { sandboxRoutes } from './http/routes/sandbox.ts';
import { transactionRoutes } from './http/routes/transactions.ts';
import { openStore } from './storage/index.ts';
import type { EventRow, Store } from './storage/store.ts';
import { CURRENT_VERSION, isVersion, rewriteEventPayload, VERSIONS } from './versions/index.ts';
import { DeliveryWorker, defaultRetry, type RetryPolicy } from './webhooks/worker.ts';

export interface WebhookOptions {
  /** Start delivering at once (default true). */
  autostart?: boolean;
  retry?: Partial<RetryPolicy>;
  /** Per attempt (default 10 s). */
  timeoutMs?: number;
  /** Longest sleep between outbox checks (default 1 s). */
  pollMs?: number;
  concurrency?: number;
  /** Version of the event payloads (default: the application's default version). */
  version?: string;
  fetch?: typeof fetch;
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
  /** The application's default version (default 2020-10-12). */
  defaultVersion?: string;
  /** Absolute base of links; default: the origin of each request (webhooks: http://localhost:3000). */
  publicUrl?: string;
  /** Real time (tests may drive it). */
  now?: Now;
  /** Enrollment-clock delay before enrichment completes (default one day). */
  enrichDelayMs?: number;
  webhooks?: WebhookOptions;
  /** Per-caller request rate limit; false (the default) for none. */
  rateLimit?: RateLimit | false;
  /** Unexpected errors go here (default console.error). */
  logError?: (error: unknown) => void;
  /** One line per request (method, path, status, duration, version); none by default. */
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
  /** Stops the worker (waiting for attempts in flight) and closes the store if the app opened it. */
  close(): Promise<void>;
}

export type App = Hono<AppEnv> & AppHandles;

function loadValidators(sandbox: boolean): Validators {
  try {
    return {
      api: new Map(VERSIONS.map((version) => [version, RequestValidator.forDocument(version as '2020-10-12' | '2019-07-01')])),
      sandbox: sandbox ? RequestValidator.forDocument('sandbox') : undefined,
    };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    throw new Error('The bundled description is missing (openapi/dist); build it first: npm run build -w @aggregation/openapi', {
      cause: error,
    });
  }
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
  const webhookVersion = options.webhooks?.version ?? defaultVersion;

  let worker: DeliveryWorker | undefined;
  const deps: Deps = {
    store,
    now,
    publicUrl: (options.publicUrl ?? 'http://localhost:3000').replace(/\/$/, ''),
    enrichDelayMs: options.enrichDelayMs ?? DAY_MS,
    onEvents: () => worker?.wake(),
  };

  const render = async (event: EventRow): Promise<string> => {
    const payload = await rewriteEventPayload(webhookVersion, event.type as EventType, JSON.parse(event.payload), {
      details: async () => null,
    });
    return JSON.stringify({ id: event.id, type: event.type, timestamp: event.timestamp, payload });
  };
  worker = new DeliveryWorker({
    store,
    now,
    render,
    secrets: async () => {
      await ensureSigningSecret(deps);
      return activeSecrets(await store.webhooks.listSecrets(), now()).map((row) => row.secret);
    },
    retry: { ...defaultRetry, ...options.webhooks?.retry },
    timeoutMs: options.webhooks?.timeoutMs ?? 10_000,
    pollMs: options.webhooks?.pollMs ?? 1_000,
    concurrency: options.webhooks?.concurrency ?? 4,
    ...(options.webhooks?.fetch ? { fetch: options.webhooks.fetch } : {}),
    onError: logError,
  });

  const runtime: Runtime = { deps, defaultVersion, sandbox };
  const app = new Hono<AppEnv>();
  const accessLog = options.accessLog;
  const logAccess = (method: string, url: string, status: number, started: number, version: string | null, note = '') => {
    const path = url.split('?', 1)[0];
    accessLog?.(`${method} ${path} ${status} ${(performance.now() - started).toFixed(1)}ms ${version ?? ''}${note}`);
  };
  if (accessLog) {
    app.use(async (c, next) => {
      const started = performance.now();
      await next();
      logAccess(c.req.method, new URL(c.req.url).pathname, c.res.status, started, c.res.headers.get(VERSION_HEADER));
    });
  }
  const validators = loadValidators(sandbox);
  const documented = [...validators.api.values()].slice(0, 1).concat(validators.sandbox ? [validators.sandbox] : []);
  app.onError((error, c) => errorResponse(c, error, logError));
  app.notFound(notFoundResponse((path) => documented.flatMap((validator) => validator.contract.allowedMethods(path))));
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
  const buckets = options.rateLimit ? new TokenBuckets(options.rateLimit, now) : undefined;
  if (buckets) app.use(rateLimit(buckets));

  const readCache =
    options.readCache === false || !store.seesOtherWriters ? undefined : new ReadCache(store, now, options.readCache);
  const r = router(app, runtime, validators, readCache);
  institutionRoutes(r, runtime);
  accountRoutes(r, runtime);
  transactionRoutes(r, runtime);
  paymentRoutes(r, runtime);
  if (sandbox) sandboxRoutes(r, runtime);
  // The rendered reference of every document, next to the API it describes.
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
      if (!entry || buckets?.take(callerOf(incoming, incoming.headers.authorization)) !== undefined) return pass();
      replay(entry, outgoing);
      if (accessLog) logAccess('GET', incoming.url!, 200, started, String(entry.headers[VERSION_HEADER.toLowerCase()] ?? ''), ' (replayed)');
    });
    if (!kept) pass();
  };

  const handles: AppHandles = {
    runtime,
    store,
    worker,
    readCache,
    serveCached,
    async close() {
      await worker.stop();
      if (ownsStore) await store.close();
    },
  };
  return Object.assign(app, handles);
}
