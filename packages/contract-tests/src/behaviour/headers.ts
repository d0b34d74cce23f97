// headers: each header whose description names a situation appears in it and only in it, judged on every exchange of
// the whole run (every suite's), as the errors check judges every error body: `Retry-After` on the statuses whose
// responses declare it (429, 503, 504) and nowhere else; `Service-Enrollment-Status` on an account's own reads (the
// operations that declare it on their success) and only where else it is declared, naming a disconnected enrollment's
// status on its 404; `Idempotent-Replayed: true` only on the answer to a request that repeats an earlier one (key,
// body, token) that succeeded; a unique `Request-Id` on every answer, which an error body repeats. And a method a path
// does not have answers 405 with the path's methods in `Allow`.
import { type DocumentName, deref, loadBundle, operationsOf } from '@aggregation/openapi/contract';
import { CURRENT_VERSION } from '@aggregation/openapi/versions';
import { documentOf, responseKey, validatorOf } from '../coverage.ts';
import type { Exchange } from '../recorder.ts';
import type { Collector } from '../report/collect.ts';
import { at, type Check } from './checks.ts';
import { exchangeFailure } from './errors.ts';
import type { Http } from './http.ts';
import { REPLAYED_HEADER } from './payments.ts';
import { rule } from './rules.ts';

const RETRY_AFTER = 'retry-after';
const ENROLLMENT_STATUS = 'service-enrollment-status';
const REQUEST_ID = 'request-id';
const STATUS_VALUE = /^(healthy|disconnected)(\.[a-z0-9_]+)*$/;

/** Where a document declares its response headers: per operation and response key, and by status. */
type Declarations = {
  /** `GET /accounts/{account_id}` → `200` → the header names (lower case) its response declares. */
  byResponse: Map<string, Map<string, Set<string>>>;
  /** Statuses whose responses declare `Retry-After` anywhere in the document. */
  retryStatuses: Set<string>;
  /** Operations that declare `Service-Enrollment-Status` required on a success: an account's own reads. */
  carrying: Set<string>;
};

const declarationsCache = new Map<DocumentName, Declarations>();

function declarationsOf(document: DocumentName): Declarations {
  const cached = declarationsCache.get(document);
  if (cached) return cached;
  const bundle = loadBundle(document);
  const declared: Declarations = { byResponse: new Map(), retryStatuses: new Set(), carrying: new Set() };
  for (const operation of operationsOf(bundle)) {
    const key = `${operation.method.toUpperCase()} ${operation.path}`;
    const responses = new Map<string, Set<string>>();
    for (const { status, response } of operation.responses) {
      const headers = (response.headers ?? {}) as Record<string, unknown>;
      const names = new Set(Object.keys(headers).map((name) => name.toLowerCase()));
      responses.set(status, names);
      if (names.has(RETRY_AFTER)) declared.retryStatuses.add(status);
      const statusHeader = Object.entries(headers).find(([name]) => name.toLowerCase() === ENROLLMENT_STATUS)?.[1];
      if (status.startsWith('2') && statusHeader && deref(bundle, statusHeader).required === true) declared.carrying.add(key);
    }
    declared.byResponse.set(key, responses);
  }
  declarationsCache.set(document, declared);
  return declared;
}

/** A request body as the service compares it: parsed (JSON, or form fields with `payee[address]` nesting), keys sorted. */
export function canonicalBody(body: string, contentType = ''): string {
  let parsed: unknown = body;
  if (contentType.includes('application/x-www-form-urlencoded')) {
    const fields: Record<string, unknown> = Object.create(null);
    for (const [name, value] of new URLSearchParams(body)) {
      const path = name.split(/\]?\[|\]$/).filter(Boolean);
      if (path.some((part) => part === '__proto__')) continue;
      let node = fields;
      for (const part of path.slice(0, -1)) {
        node[part] ??= Object.create(null);
        node = node[part] as Record<string, unknown>;
      }
      node[path.at(-1) ?? name] = value;
    }
    parsed = fields;
  } else {
    try {
      parsed = JSON.parse(body);
    } catch {
      parsed = body;
    }
  }
  const canonical = (value: unknown): string =>
    value && typeof value === 'object' && !Array.isArray(value)
      ? `{${Object.keys(value)
          .sort()
          .map((key) => `${JSON.stringify(key)}:${canonical((value as Record<string, unknown>)[key])}`)
          .join(',')}}`
      : Array.isArray(value)
        ? `[${value.map(canonical).join(',')}]`
        : JSON.stringify(value);
  return canonical(parsed);
}

/** The request an exchange repeats, as far as idempotency goes: token, method, path, key and body (as parsed). */
const repeatKey = (exchange: Exchange) =>
  JSON.stringify([
    exchange.requestHeaders.authorization,
    exchange.method,
    exchange.path,
    exchange.requestHeaders['idempotency-key'],
    canonicalBody(exchange.requestBody, exchange.requestHeaders['content-type']),
  ]);

const errorBodyOf = (exchange: Exchange): { code?: unknown; request_id?: unknown } | undefined => {
  try {
    return (JSON.parse(exchange.answerBody ?? '') as { error?: { code?: unknown; request_id?: unknown } }).error;
  } catch {
    return undefined;
  }
};

/** Judges the headers of every exchange of the run; answers how many were judged. */
export function checkHeaders(exchanges: Exchange[], collector: Collector, secretToken: string | undefined): number {
  const rules = {
    retry: rule(CURRENT_VERSION, '#/components/headers/RetryAfter/description', 'Number of seconds to wait before retrying the request.'),
    carried: rule(
      CURRENT_VERSION,
      '#/info/description',
      'Responses for one account (get account, details, balances, transactions, one transaction) carry `Service-Enrollment-Status`',
    ),
    replayed: rule(
      CURRENT_VERSION,
      '#/components/headers/IdempotentReplayed/description',
      '`true` when this answer is the stored response of an earlier request with the same `Idempotency-Key` and body',
    ),
    requestId: rule(
      CURRENT_VERSION,
      '#/info/description',
      'Every response carries a `Request-Id` header (`req_...`), unique per request, and an error body repeats it as `error.request_id`.',
    ),
  };
  const succeeded = new Set<string>();
  const requestIds = new Map<string, number>();
  for (const exchange of exchanges) {
    if (exchange.injected) continue;
    const id = exchange.responseHeaders[REQUEST_ID];
    if (id) requestIds.set(id, (requestIds.get(id) ?? 0) + 1);
  }

  for (const exchange of exchanges) {
    // An answer the recorder made itself (a fault round) is not the server's.
    if (exchange.injected) continue;
    const document = documentOf(exchange);
    // A HEAD answers with the headers of the GET it stands for.
    const method = exchange.method.toUpperCase() === 'HEAD' ? 'GET' : exchange.method.toUpperCase();
    const matched = validatorOf(document).match(method, exchange.path);
    const operation = matched ? `${method} ${matched.path}` : null;
    const declared = declarationsOf(document);
    const responses = operation ? declared.byResponse.get(operation) : undefined;
    const statusKey = responses ? responseKey(Object.fromEntries(responses), exchange.status) : undefined;
    const declaredHere = (statusKey && responses?.get(statusKey)) || new Set<string>();
    const headers = exchange.responseHeaders;
    const judge = (check: Check, problem: string | undefined, words: string) =>
      collector.record(at(document, operation, check), problem === undefined ? undefined : exchangeFailure(exchange, problem, words, secretToken));

    // Retry-After: on the statuses that declare it, a number of seconds; on no other.
    const retry = headers[RETRY_AFTER];
    const retryExpected = declared.retryStatuses.has(String(exchange.status));
    judge(
      'headers: Retry-After on 429, 503 and 504 and only there',
      retryExpected && (retry === undefined || !/^\d+$/.test(retry))
        ? `a ${exchange.status} came with Retry-After ${retry ?? '(none)'}; the description declares a number of seconds on every ${[...declared.retryStatuses].join(', ')}`
        : !retryExpected && retry !== undefined
          ? `a ${exchange.status} came with Retry-After ${retry}; the description declares it only on ${[...declared.retryStatuses].join(', ')}`
          : undefined,
      rules.retry,
    );

    // Service-Enrollment-Status: an account's own reads carry it; elsewhere only where declared.
    const status = headers[ENROLLMENT_STATUS];
    const carrying = operation !== null && declared.carrying.has(operation);
    if (!carrying) {
      judge(
        "headers: Service-Enrollment-Status only on an account's own reads",
        status !== undefined && !declaredHere.has(ENROLLMENT_STATUS)
          ? `${operation ?? `${exchange.method} ${exchange.path}`} answered ${exchange.status} with Service-Enrollment-Status ${status}; only an account's own reads carry it`
          : undefined,
        rules.carried,
      );
    } else {
      const code = errorBodyOf(exchange)?.code;
      const disconnected = typeof code === 'string' && /^enrollment\.disconnected(\.|$)/.test(code) ? code.slice('enrollment.'.length) : undefined;
      const problem =
        exchange.status < 300 && (status === undefined || !STATUS_VALUE.test(status))
          ? `a ${exchange.status} of an account's own read came with Service-Enrollment-Status ${status ?? '(none)'}`
          : disconnected !== undefined && status !== disconnected
            ? `a 404 ${code} came with Service-Enrollment-Status ${status ?? '(none)'}, expected ${disconnected}`
            : undefined;
      if (exchange.status < 300 || disconnected !== undefined)
        judge("headers: Service-Enrollment-Status names the enrollment's status", problem, rules.carried);
    }

    // Idempotent-Replayed: only `true`, only where declared, only on a request that repeats one that succeeded.
    const replayed = headers[REPLAYED_HEADER];
    const repeat = repeatKey(exchange);
    if (replayed !== undefined || (declaredHere.has(REPLAYED_HEADER) && exchange.requestHeaders['idempotency-key'])) {
      judge(
        'headers: Idempotent-Replayed: true on a replay and never otherwise',
        replayed === undefined
          ? undefined
          : replayed !== 'true' || !declaredHere.has(REPLAYED_HEADER)
            ? `a ${exchange.status} came with Idempotent-Replayed ${replayed}; the description declares \`true\` on the stored answers of payments and payees`
            : !succeeded.has(repeat)
              ? `a ${exchange.status} came with Idempotent-Replayed true, but no earlier request with this Idempotency-Key, body and token succeeded`
              : undefined,
        rules.replayed,
      );
    }
    if (exchange.requestHeaders['idempotency-key'] && exchange.status >= 200 && exchange.status < 300) succeeded.add(repeat);

    // Request-Id: on every answer, once in the run, repeated by an error body.
    const id = headers[REQUEST_ID];
    const repeated = errorBodyOf(exchange)?.request_id;
    judge(
      'headers: Request-Id on every answer, unique, repeated in error bodies',
      id === undefined || !id.startsWith('req_')
        ? `a ${exchange.status} came with Request-Id ${id ?? '(none)'}`
        : (requestIds.get(id) ?? 0) > 1
          ? `Request-Id ${id} answered ${requestIds.get(id)} requests of this run`
          : exchange.answerBody !== undefined && errorBodyOf(exchange) !== undefined && repeated !== id
            ? `the error body's request_id ${JSON.stringify(repeated)} is not the Request-Id ${id}`
            : undefined,
      rules.requestId,
    );
  }
  return exchanges.length;
}

/** A method a path does not have answers 405, and `Allow` lists the methods the description gives the path. */
export async function checkAllow(http: Http, collector: Collector): Promise<void> {
  const validator = validatorOf(CURRENT_VERSION);
  const words = rule(CURRENT_VERSION, '#/info/description', 'A method the path does not have; the `Allow` header lists those it has.');
  for (const [method, path] of [
    ['PATCH', '/accounts'],
    ['POST', '/institutions'],
  ] as const) {
    const expected = validator.allowedMethods(path).sort();
    const answer = await http.send(method, path, { version: CURRENT_VERSION });
    const allowed = (answer.headers.get('allow') ?? '')
      .split(',')
      .map((m) => m.trim().toUpperCase())
      .filter(Boolean)
      .sort();
    collector.record(
      at(CURRENT_VERSION, `${method} ${path}`, "headers: Allow on 405 lists the path's methods"),
      answer.status === 405 && JSON.stringify(allowed) === JSON.stringify(expected)
        ? undefined
        : http.failure(
            answer,
            `${method} ${path} answered ${answer.status} with Allow ${answer.headers.get('allow') ?? '(none)'}; the path has ${expected.join(', ')}`,
            words,
          ),
    );
  }
}
