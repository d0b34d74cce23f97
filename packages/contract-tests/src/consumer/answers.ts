// The answers a fault round sends in place of the API's: each is one the description documents for the operation,
// built from its response definition (status, headers, a documented example as the body) and validated against the
// description before it is sent, so that a round never tests the command against an answer the API cannot give.
import { type DocumentName, deref, type JsonObject } from '@aggregation/openapi/contract';
import { validatorOf } from '../coverage.ts';
import { operationsById } from './requests.ts';

export type Answer = { status: number; headers: Record<string, string>; body: string };

/** Values for the headers a documented answer carries, by lower-case name. */
export type HeaderValues = Record<string, string>;

/** The documented response of an operation for a status (`503`), if there is one. */
export function documentedResponse(document: DocumentName, operationId: string, status: number): JsonObject | undefined {
  const operation = operationsById(document).get(operationId);
  return operation?.responses.find((r) => r.status === String(status))?.response;
}

/** Whether the operation documents this status. */
export const documents = (document: DocumentName, operationId: string, status: number): boolean =>
  documentedResponse(document, operationId, status) !== undefined;

/** The documented example body of a response: the one named, or the one whose error code starts with `code`, or the first. */
function exampleBody(document: DocumentName, response: JsonObject, choose: { example?: string; code?: string }): unknown {
  const doc = validatorOf(document).doc;
  const media = (response.content as Record<string, JsonObject> | undefined)?.['application/json'];
  if (!media) throw new Error('the response has no application/json content');
  const examples = Object.entries((media.examples ?? {}) as Record<string, unknown>).map(([name, raw]) => ({
    name,
    value: deref<JsonObject>(doc, raw).value as unknown,
  }));
  const code = (value: unknown) => (value as { error?: { code?: unknown } } | undefined)?.error?.code;
  const found =
    (choose.example && examples.find((e) => e.name === choose.example)) ||
    (choose.code && examples.find((e) => String(code(e.value)).startsWith(choose.code!))) ||
    examples[0];
  if (found) return found.value;
  if (media.example !== undefined) return media.example;
  throw new Error('the response documents no example');
}

/**
 * A documented answer of `operationId` with `status`: its documented headers given values (`Service-Version` the
 * document's version unless told), its body a documented example. Throws when the result breaks the description.
 */
export function documentedAnswer(
  document: DocumentName,
  operationId: string,
  status: number,
  options: { headers?: HeaderValues; example?: string; code?: string; path: string; method: string },
): Answer {
  const response = documentedResponse(document, operationId, status);
  if (!response) throw new Error(`${operationId} documents no ${status}`);
  const doc = validatorOf(document).doc;
  const given: HeaderValues = { 'service-version': document, ...options.headers };
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  for (const [name, raw] of Object.entries((response.headers ?? {}) as Record<string, unknown>)) {
    const header = deref(doc, raw);
    const value = given[name.toLowerCase()];
    if (value !== undefined) headers[name] = value;
    else if (header.required) throw new Error(`${operationId} ${status} needs a value for its header ${name}`);
  }
  const body = exampleBody(document, response, options);
  const problems = validatorOf(document).validateResponse({ method: options.method, path: options.path, status, headers, body });
  if (problems.length) throw new Error(`the injected ${status} of ${operationId} breaks the description: ${problems.map((p) => p.message).join('; ')}`);
  return { status, headers, body: JSON.stringify(body) };
}
