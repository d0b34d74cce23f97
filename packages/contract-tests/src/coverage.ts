// Coverage of each document by the run's traffic: the operations called, and the documented responses (operation and
// status) observed, matched through the description's own walk and matcher (@aggregation/openapi).
import { ContractValidator, type DocumentName, loadBundle, operationsOf } from '@aggregation/openapi/contract';
import { CURRENT_VERSION, DOCUMENT_NAMES, VERSIONS } from '@aggregation/openapi/versions';
import type { Exchange } from './recorder.ts';
import type { DocumentCoverage } from './report/types.ts';

export const validatorOf = (document: DocumentName): ContractValidator => ContractValidator.shared(document);

const isVersion = (value: string | undefined): value is (typeof VERSIONS)[number] => (VERSIONS as readonly string[]).includes(value ?? '');

/**
 * The document an exchange belongs to: the sandbox control API by its paths, otherwise the version the request asked
 * for, or else the one the answer names, or else the current one.
 */
export function documentOf(exchange: Pick<Exchange, 'path' | 'requestHeaders' | 'responseHeaders'>): DocumentName {
  if (exchange.path === '/sandbox' || exchange.path.startsWith('/sandbox/')) return 'sandbox';
  const asked = exchange.requestHeaders['service-version'];
  if (isVersion(asked)) return asked;
  const answered = exchange.responseHeaders['service-version'];
  return isVersion(answered) ? answered : CURRENT_VERSION;
}

/** The documented response key an answer falls under (`404`, `4XX`, `default`), if any. */
export function responseKey(responses: Record<string, unknown>, status: number): string | undefined {
  return [String(status), `${String(status)[0]}XX`, 'default'].find((key) => Object.hasOwn(responses, key));
}

export function coverageOf(exchanges: Exchange[]): DocumentCoverage[] {
  const called = new Map<DocumentName, Set<string>>();
  const observed = new Map<DocumentName, Set<string>>();
  for (const exchange of exchanges) {
    const document = documentOf(exchange);
    const matched = validatorOf(document).match(exchange.method, exchange.path);
    const operationId = matched?.operation.operationId;
    if (!matched || typeof operationId !== 'string') continue;
    if (!called.has(document)) called.set(document, new Set());
    called.get(document)!.add(operationId);
    const key = responseKey((matched.operation.responses ?? {}) as Record<string, unknown>, exchange.status);
    if (key) {
      if (!observed.has(document)) observed.set(document, new Set());
      observed.get(document)!.add(`${operationId} ${key}`);
    }
  }
  return DOCUMENT_NAMES.map((document) => {
    const operations = operationsOf(loadBundle(document));
    const responses = operations.flatMap((o) => o.responses.map((r) => `${o.operationId} ${r.status}`));
    const calledHere = called.get(document) ?? new Set();
    const observedHere = observed.get(document) ?? new Set();
    return {
      document,
      operations: {
        called: operations.filter((o) => calledHere.has(o.operationId)).length,
        total: operations.length,
        notCalled: operations.filter((o) => !calledHere.has(o.operationId)).map((o) => o.operationId),
      },
      responses: {
        observed: responses.filter((r) => observedHere.has(r)).length,
        total: responses.length,
        percent: responses.length ? (100 * responses.filter((r) => observedHere.has(r)).length) / responses.length : 100,
        notObserved: responses.filter((r) => !observedHere.has(r)),
      },
    };
  });
}
