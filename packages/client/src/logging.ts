// The client's log: one line per call (method, path, status, duration, retries, request id) at `info`, each retry at
// `warn`, a call that ended without a response or with a 5xx at `error`, and at `debug` the same lines with the
// request's and response's headers. Nothing is logged below the chosen level, and no line ever holds a credential:
// headers that carry one are replaced by `[redacted]`, and no body is logged.

import { readEnvironment } from './environment.ts';
import { ConnectionError, REQUEST_ID_HEADER } from './errors.ts';
import type { RetryInfo, RetryingSend } from './retry.ts';

export type LogLevel = 'off' | 'error' | 'warn' | 'info' | 'debug';

type LogFunction = (message: string, details?: LogDetails) => void;
/** Any object with these four methods: `console` (the default), pino, winston, ... */
export type Logger = { error: LogFunction; warn: LogFunction; info: LogFunction; debug: LogFunction };

/** What a line is about, for loggers that keep fields apart from the message. */
export type LogDetails = {
  method: string;
  /** The URL's path and query. */
  path: string;
  status?: number | undefined;
  durationMs: number;
  /** Retries made so far (in a retry's line, this one included). */
  retries: number;
  requestId?: string | undefined;
  /** Why an attempt or the call got no response. */
  error?: string | undefined;
  /** The wait before the retry a `warn` line announces. */
  delayMs?: number | undefined;
  requestHeaders?: Record<string, string> | undefined;
  responseHeaders?: Record<string, string> | undefined;
};

/** The environment variable that sets the level when the client's options do not. */
export const LOG_LEVEL_ENV = 'AGGREGATION_LOG';

const rank: Record<LogLevel, number> = { off: 0, error: 1, warn: 2, info: 3, debug: 4 };
const credentialHeaders = new Set(['authorization', 'proxy-authorization', 'cookie', 'set-cookie']);

function isLogLevel(value: unknown): value is LogLevel {
  return typeof value === 'string' && Object.hasOwn(rank, value);
}

/** The option's level, else `AGGREGATION_LOG`'s, else `off`; a value that is no level is said once on `warn`, and ignored. */
export function resolveLogLevel(given: LogLevel | undefined, logger: Logger): LogLevel {
  const fromEnvironment = readEnvironment(LOG_LEVEL_ENV)?.trim();
  for (const [value, source] of [
    [given, 'logLevel'],
    [fromEnvironment || undefined, LOG_LEVEL_ENV],
  ] as const) {
    if (value === undefined) continue;
    if (isLogLevel(value)) return value;
    logger.warn(`${source} is ${JSON.stringify(value)}, not one of ${Object.keys(rank).join(', ')}: not logging`);
    return 'off';
  }
  return 'off';
}

function headersOf(headers: Headers): Record<string, string> {
  const kept: Record<string, string> = {};
  headers.forEach((value, name) => {
    kept[name] = credentialHeaders.has(name) ? '[redacted]' : value;
  });
  return kept;
}

/** Wraps a call's sending with its log lines; `undefined` when the level is `off`, so that nothing is done per call. */
export function loggedSend(send: RetryingSend, logger: Logger, level: LogLevel): RetryingSend | undefined {
  if (level === 'off') return undefined;
  const at = (wanted: LogLevel) => rank[level] >= rank[wanted];
  const debug = at('debug');

  return async (request, call) => {
    const started = performance.now();
    const { pathname, search } = new URL(request.url);
    let retries = 0;
    const details = (response: Response | undefined, error: unknown): LogDetails => ({
      method: request.method,
      path: pathname + search,
      durationMs: Math.round(performance.now() - started),
      retries,
      ...(debug ? { requestHeaders: headersOf(request.headers) } : {}),
      ...answered(response, error, debug),
    });
    const onRetry = (info: RetryInfo) => {
      call?.onRetry?.(info);
      if (at('warn')) {
        const line = { ...details(info.response, info.error), delayMs: Math.round(info.delayMs) };
        logger.warn(`${describe(line)}; retrying in ${line.delayMs} ms (retry ${info.attempt})`, line);
      }
      retries = info.attempt;
    };
    try {
      const response = await send(request, { ...call, onRetry });
      const line = details(response, undefined);
      if (response.status >= 500 && response.status <= 599) {
        if (at('error')) logger.error(describe(line), line);
      } else if (at('info')) logger.info(describe(line), line);
      return response;
    } catch (error) {
      const line = details(undefined, error);
      // A call that got no response is an error; the caller's own abort is not.
      if (error instanceof ConnectionError) {
        if (at('error')) logger.error(describe(line), line);
      } else if (at('info')) logger.info(describe(line), line);
      throw error;
    }
  };
}

function describe(line: LogDetails): string {
  const outcome = line.status ?? `failed (${line.error})`;
  const retried = line.retries ? ` after ${line.retries} ${line.retries === 1 ? 'retry' : 'retries'}` : '';
  const id = line.requestId ? ` (request id ${line.requestId})` : '';
  return `${line.method} ${line.path} ${outcome} in ${line.durationMs} ms${retried}${id}`;
}

function answered(response: Response | undefined, error: unknown, debug: boolean): Partial<LogDetails> {
  if (!response) return { error: error instanceof Error ? error.message : String(error) };
  return {
    status: response.status,
    requestId: response.headers.get(REQUEST_ID_HEADER) ?? undefined,
    ...(debug ? { responseHeaders: headersOf(response.headers) } : {}),
  };
}
