// The edge of the HTTP server: what happens to every request around the app, and what answers
// before it. Each request gets its Request-Id and, once answered, its access log line and its
// request log entry; a GET the read cache holds is replayed here (counted against the rate
// limit) without building a Request for Hono.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { MiddlewareHandler } from 'hono';
import type { EnrollmentRow } from '../storage/store.ts';
import type { AppEnv } from './env.ts';
import { addressCaller } from './middleware/rate-limit.ts';
import { VERSION_HEADER } from './middleware/version.ts';
import { type ReadCache, readCacheKey, replay } from './read-cache.ts';
import { newRequestId, REQUEST_ID_HEADER } from './request-id.ts';
import { LOGS_PATH, type RequestLog, requestLogScope } from './request-log.ts';
import type { TokenBuckets } from './token-buckets.ts';

/** What the access log and the request log say of a request once it is answered. */
export interface FinishedRequest {
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

export interface EdgeOptions {
  readCache: ReadCache | undefined;
  rateLimit: TokenBuckets | undefined;
  requestLog: RequestLog;
  accessLog: ((line: string) => void) | undefined;
}

export interface Edge {
  /** The app's first middleware: the request id, then the logs once the app has answered. */
  track: MiddlewareHandler<AppEnv>;
  /**
   * For the Node server, before the app: answers a GET from the read cache when it can, else
   * hands the request, untouched, to `pass` (at once, or once the kept response proves stale).
   */
  serveCached(incoming: IncomingMessage, outgoing: ServerResponse, pass: () => void): void;
  /** For what answers before the app: logs a request it answered, as `track` does for the app's. */
  observe(done: FinishedRequest): void;
}

export function httpEdge({ readCache, rateLimit, requestLog, accessLog }: EdgeOptions): Edge {
  /** The access log's line and the request log's entry of a finished request. */
  const observe = (done: FinishedRequest) => {
    if (!accessLog && !requestLog.listening) return;
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

  const track: MiddlewareHandler<AppEnv> = async (c, next) => {
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
  };

  const serveCached = (incoming: IncomingMessage, outgoing: ServerResponse, pass: () => void): void => {
    const key = readCache && readCacheKey(incoming);
    if (!key) {
      pass();
      return;
    }
    const started = performance.now();
    const kept = readCache!.check(key, incoming, (entry) => {
      // A caller out of tokens goes to the app, which answers the 429.
      if (!entry || rateLimit?.take(entry.caller ?? addressCaller(incoming)) !== undefined) return pass();
      const requestId = newRequestId();
      replay(entry, outgoing, requestId);
      if (accessLog || requestLog.listening) {
        observe({
          method: 'GET',
          path: incoming.url!.split('?', 1)[0]!,
          status: 200,
          started,
          version: entry.version,
          requestId,
          scope: entry.scope,
          replayed: true,
        });
      }
    });
    if (!kept) pass();
  };

  return { track, serveCached, observe };
}
