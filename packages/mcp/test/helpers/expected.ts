// What the description says each tool must be, worked out here on its own: the bundle dereferenced by a third-party
// dereferencer (json-schema-ref-parser, not the walk the server uses), then each operation's parameters, body and
// success answers put together by the rules the README states. A tool that differs from this differs from the
// description.

import { loadBundle } from '@aggregation/openapi/contract';
import type { Version } from '@aggregation/openapi/versions';
import { dereference } from '@apidevtools/json-schema-ref-parser';

type Json = Record<string, any>;

export type ExpectedTool = {
  name: string;
  operationId: string;
  method: string;
  path: string;
  summary: string;
  description: string;
  inputSchema: Json;
  /** Undefined for an answer without a body. */
  outputSchema: Json | undefined;
  /** The shape of the answer: as it is, wrapped under `data`, or a page (`data` and `next_from_id`). */
  answer: 'object' | 'list' | 'page' | 'none';
  /** The operation declares an `Idempotency-Key` header. */
  keyed: boolean;
  /** Every parameter and body field, with its place in the request. */
  inputs: { argument: string; in: string; name: string }[];
  /** The description's examples: request bodies and each success answer. */
  operation: Json;
};

const methods = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];
const snake = (name: string) =>
  name
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replaceAll('-', '_')
    .toLowerCase();

const cache = new Map<Version, Promise<ExpectedTool[]>>();

/** Every operation of the version's bundle as the tool it must be. */
export function expectedTools(version: Version): Promise<ExpectedTool[]> {
  let found = cache.get(version);
  if (!found) {
    found = dereference(structuredClone(loadBundle(version)) as Json).then((document) => toolsFrom(document as Json));
    cache.set(version, found);
  }
  return found;
}

function toolsFrom(document: Json): ExpectedTool[] {
  const tools: ExpectedTool[] = [];
  for (const [path, item] of Object.entries(document.paths as Json)) {
    for (const method of methods.filter((m) => item[m])) {
      const operation = item[method];
      const parameters = [...(operation.parameters ?? [])];
      for (const shared of item.parameters ?? []) {
        if (!parameters.some((p: Json) => p.name === shared.name && p.in === shared.in)) parameters.push(shared);
      }
      const properties: Json = {};
      const required: string[] = [];
      const inputs: ExpectedTool['inputs'] = [];
      let keyed = false;
      for (const parameter of parameters) {
        if (parameter.in === 'header' && parameter.name === 'Service-Version') continue;
        const argument = parameter.in === 'header' ? snake(parameter.name) : parameter.name;
        properties[argument] = { ...parameter.schema, description: parameter.description.trim() };
        const isKey = parameter.in === 'header' && parameter.name === 'Idempotency-Key';
        keyed ||= isKey;
        if (parameter.required || isKey) required.push(argument);
        inputs.push({ argument, in: parameter.in, name: parameter.name });
      }
      const body = operation.requestBody?.content?.['application/json']?.schema;
      if (body) {
        for (const [field, schema] of Object.entries(body.properties as Json)) {
          properties[field] = schema;
          if (operation.requestBody.required && body.required?.includes(field)) required.push(field);
          inputs.push({ argument: field, in: 'body', name: field });
        }
      }
      const inputSchema: Json = { type: 'object', properties, additionalProperties: false };
      if (required.length > 0) inputSchema.required = required;

      const answers = Object.entries(operation.responses as Json)
        .filter(([status]) => /^2\d\d$/.test(status))
        .map(([, response]) => response.content?.['application/json']?.schema)
        .filter(Boolean);
      let outputSchema: Json | undefined;
      let answer: ExpectedTool['answer'] = 'none';
      const schema = answers[0];
      if (schema?.type === 'array') {
        const paged = ['count', 'from_id'].every((name) => parameters.some((p: Json) => p.in === 'query' && p.name === name));
        const wrapped: Json = { data: schema };
        if (paged) wrapped.next_from_id = { type: ['string', 'null'] };
        outputSchema = { type: 'object', properties: wrapped, required: Object.keys(wrapped), additionalProperties: false };
        answer = paged ? 'page' : 'list';
      } else if (schema) {
        outputSchema = schema.type === 'object' ? schema : { type: 'object', ...schema };
        answer = 'object';
      }
      tools.push({
        name: snake(operation.operationId),
        operationId: operation.operationId,
        method,
        path,
        summary: operation.summary,
        description: operation.description ?? '',
        inputSchema,
        outputSchema,
        answer,
        keyed,
        inputs,
        operation,
      });
    }
  }
  return tools;
}

/** Differences between a tool's schema and the expected one, as JSON pointers; `required` compared as a set. */
export function schemaDifferences(actual: unknown, expected: unknown, at = ''): string[] {
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual)) return [`${at}: not an array`];
    const set = at.endsWith('/required');
    const a = set ? [...actual].sort() : actual;
    const e = set ? [...expected].sort() : expected;
    if (a.length !== e.length) return [`${at}: ${a.length} items instead of ${e.length}`];
    return e.flatMap((item, index) => schemaDifferences(a[index], item, `${at}/${index}`));
  }
  if (expected !== null && typeof expected === 'object') {
    if (actual === null || typeof actual !== 'object' || Array.isArray(actual)) return [`${at}: not an object`];
    const keys = new Set([...Object.keys(expected), ...Object.keys(actual)]);
    return [...keys].flatMap((key) => {
      if (!(key in (actual as Json))) return [`${at}/${key}: missing`];
      if (!(key in (expected as Json))) return [`${at}/${key}: not in the description`];
      return schemaDifferences((actual as Json)[key], (expected as Json)[key], `${at}/${key}`);
    });
  }
  return Object.is(actual, expected) ? [] : [`${at}: ${JSON.stringify(actual)} instead of ${JSON.stringify(expected)}`];
}
