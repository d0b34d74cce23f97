// Assembles the application: storage, the domain's dependencies (with the sandbox's
// institutions behind them), the webhook deliveries, the HTTP edge and the Hono app. The result
// is the Hono app itself (its `fetch` serves requests in-process) plus handles to close it.
import type { Hono } from 'hono';
import { DAY_MS, type Now } from './domain/clock.ts';
import type { Deps } from './domain/context.ts';
import { NO_LIMITS, type SandboxLimits } from './domain/limits.ts';
import { httpApp, loadValidators } from './http/app.ts';
import { type Edge, httpEdge } from './http/edge.ts';
import type { AppEnv, Runtime } from './http/env.ts';
import { fastPage, type PageServer } from './http/fast-page.ts';
import { keptAccounts } from './http/kept-accounts.ts';
import { KnownTokens } from './http/known-tokens.ts';
import { presentTransaction } from './http/present.ts';
import { DEFAULT_READ_CACHE_BYTES, ReadCache, type ReadCacheOptions } from './http/read-cache.ts';
import { DEFAULT_RENDERED_ROWS_BYTES, RenderedRows } from './http/rendered-rows.ts';
import { RequestLog } from './http/request-log.ts';
import { type RateLimit, TokenBuckets } from './http/token-buckets.ts';
import { sandboxInstitutions } from './sandbox/index.ts';
import { DEFAULT_MAX_HISTORY, MAX_HISTORY } from './sandbox/users.ts';
import { openStore } from './storage/index.ts';
import type { Store } from './storage/store.ts';
import { CURRENT_VERSION, isVersion, VERSIONS } from './versions/index.ts';
import { type Deliveries, type WebhookOptions, webhookDeliveries } from './webhooks/deliveries.ts';
import type { TargetPolicy } from './webhooks/targets.ts';
import type { DeliveryWorker } from './webhooks/worker.ts';

export type { WebhookOptions } from './webhooks/deliveries.ts';

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
  /** Rows of a large `history.<n>` written per commit (default 500): tests split a day with a smaller history. */
  historyBatchRows?: number;
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
   * on a store that cannot see other processes' writes: a replay could be stale.
   */
  readCache?: ReadCacheOptions | false;
  /**
   * Memory budget of the transactions' rendered JSON, kept per row version for pages rendered rather than replayed
   * (0 keeps none; see http/rendered-rows.ts). By default an eighth of the read cache's budget, which the replayed
   * responses then share with it (8 MiB of the default 64); 8 MiB of its own when the read cache is off. Given here,
   * it is a budget of its own.
   */
  renderedRowsBytes?: number;
}

/** The read cache's budget bounds all that reads keep: the rendered rows' share comes out of it. */
export function readMemory(options: AppOptions): { readCache: ReadCacheOptions | false; renderedRowsBytes: number } {
  const readCache = options.readCache ?? {};
  if (options.renderedRowsBytes !== undefined) return { readCache, renderedRowsBytes: options.renderedRowsBytes };
  if (readCache === false) return { readCache, renderedRowsBytes: DEFAULT_RENDERED_ROWS_BYTES };
  const budget = readCache.maxBytes ?? DEFAULT_READ_CACHE_BYTES;
  const renderedRowsBytes = Math.floor(budget / 8);
  return { readCache: { ...readCache, maxBytes: budget - renderedRowsBytes }, renderedRowsBytes };
}

export interface AppHandles {
  runtime: Runtime;
  store: Store;
  worker: DeliveryWorker;
  /** Replayed reads; undefined when turned off. */
  readCache: ReadCache | undefined;
  /** For the Node server, before the app: replays what the read cache can (see http/edge.ts). */
  serveCached: Edge['serveCached'];
  /**
   * For the Node server, after the read cache and before the app: answers an ordinary transactions page
   * (http/fast-page.ts). Undefined with the read cache on: its capture keeps what the app renders.
   */
  servePage: PageServer | undefined;
  /** The request log's streams (`GET /sandbox/logs`). */
  requestLog: RequestLog;
  /** Stops the worker (waiting for attempts in flight) and closes the store if the app opened it. */
  close(): Promise<void>;
}

export type App = Hono<AppEnv> & AppHandles;

export function createApp(options: AppOptions = {}): App {
  const defaultVersion = options.defaultVersion ?? CURRENT_VERSION;
  if (!isVersion(defaultVersion)) throw new Error(`unknown default version ${defaultVersion}; known: ${VERSIONS.join(', ')}`);
  const ownsStore = options.store === undefined;
  const store = options.store ?? openStore({ path: options.databasePath ?? ':memory:', url: options.databaseUrl });
  const now = options.now ?? Date.now;
  const logError = options.logError ?? ((error: unknown) => console.error(error));
  const webhookTargets = options.webhookTargets ?? { allowPrivate: true };
  const publicUrl = options.publicUrl?.replace(/\/$/, '');

  let deliveries: Deliveries | undefined;
  const deps: Deps = {
    store,
    now,
    institutions: sandboxInstitutions,
    // Read at each event: startServer points it at the address it listens on.
    eventTransaction: (row) => presentTransaction(runtime.publicUrl, row),
    enrichDelayMs: options.enrichDelayMs ?? DAY_MS,
    maxHistory: Math.min(options.maxHistory ?? DEFAULT_MAX_HISTORY, MAX_HISTORY),
    ...(options.historyBatchRows ? { historyBatchRows: options.historyBatchRows } : {}),
    onEvents: () => deliveries?.worker.wake(),
  };
  const rateLimit = options.rateLimit ? new TokenBuckets(options.rateLimit, now) : undefined;
  const requestLog = new RequestLog();
  const memory = readMemory(options);
  const runtime: Runtime = {
    deps,
    defaultVersion,
    publicUrl: publicUrl ?? 'http://localhost:3000',
    sandbox: options.sandbox ?? true,
    rateLimit,
    requestLog,
    defaultApplication: options.defaultApplication ?? true,
    limits: { ...NO_LIMITS, ...options.limits },
    webhookTargets,
    renderedRows: new RenderedRows(memory.renderedRowsBytes),
    knownTokens: new KnownTokens(store),
    keptAccounts: keptAccounts(store),
  };
  const readCache = memory.readCache === false || !store.seesOtherWriters ? undefined : new ReadCache(store, now, memory.readCache);
  const edge = httpEdge({ readCache, rateLimit, requestLog, accessLog: options.accessLog });
  const validators = loadValidators(runtime.sandbox);
  const app = httpApp(runtime, { edge, validators, readCache, publicUrl, logError });
  const servePage = readCache ? undefined : fastPage(runtime, { edge, validators, publicUrl });
  // Started once the app is built: a missing description stops createApp with nothing left running.
  deliveries = webhookDeliveries(deps, { defaultVersion, targets: webhookTargets, logError }, options.webhooks);

  const handles: AppHandles = {
    runtime,
    store,
    worker: deliveries.worker,
    readCache,
    serveCached: edge.serveCached,
    servePage,
    requestLog,
    async close() {
      requestLog.close();
      await deliveries.close();
      if (ownsStore) await store.close();
    },
  };
  return Object.assign(app, handles);
}
