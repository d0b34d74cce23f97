// The one walk of a description: every operation (and every webhook event) with its parameters, request body,
// responses and security, each `$ref` followed one way (`locate`). Whatever is resolved keeps the JSON pointer of where
// it stands, so that a validator can compile a schema in place and its references keep resolving inside the bundle.
// The server's request validator, the docs, the contract tests and the description's own tests all walk through here.
import type { JsonObject, OpenApiDocument } from './bundles.ts';

export const httpMethods = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;
export type HttpMethod = (typeof httpMethods)[number];

/** A value with its `$ref` chain followed, and the JSON pointer of where it stands at the end of that chain. */
export type Located<T = JsonObject> = { value: T; pointer: string };

/** One segment of a JSON pointer (`/` and `~` escaped). */
export const escapePointer = (segment: string): string => segment.replace(/~/g, '~0').replace(/\//g, '~1');

function resolvePointer(doc: OpenApiDocument, ref: string): unknown {
  if (!ref.startsWith('#/')) throw new Error(`only local references are expected in a bundle: ${ref}`);
  let node: unknown = doc;
  for (const raw of ref.slice(2).split('/')) {
    const key = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
    node = (node as JsonObject | undefined)?.[key];
    if (node === undefined) throw new Error(`unresolved $ref ${ref}`);
  }
  return node;
}

/** Follows `value`'s local `$ref` chain to its target; `pointer` is where `value` itself stands. */
export function locate<T = JsonObject>(doc: OpenApiDocument, value: unknown, pointer: string): Located<T> {
  let current = value as JsonObject;
  let at = pointer;
  const seen = new Set<string>();
  while (current && typeof current.$ref === 'string') {
    at = current.$ref;
    if (seen.has(at)) throw new Error(`circular $ref ${at}`);
    seen.add(at);
    current = resolvePointer(doc, at) as JsonObject;
  }
  return { value: current as T, pointer: at };
}

/** Follows a local `$ref` (`#/components/...`) to its target; other values are returned as they are. */
export function deref<T = JsonObject>(doc: OpenApiDocument, value: unknown): T {
  return locate<T>(doc, value, '').value;
}

export type Parameter = { name: string; in: 'path' | 'query' | 'header' | 'cookie'; required?: boolean; example?: unknown; schema?: JsonObject };

/** A parameter, its `$ref` followed, with its schema followed too and the pointers of both (the schema's: or where it would stand). */
export type OperationParameter = Parameter & { required: boolean; pointer: string; schemaPointer: string };

/** One media type of a body: its schema, `$ref` followed, and where that schema stands (or would). */
export type MediaType = { mediaType: string; media: JsonObject; schema: JsonObject | undefined; schemaPointer: string };

export type RequestBody = { required: boolean; pointer: string; body: JsonObject; content: MediaType[] };

export type OperationResponse = { status: string; pointer: string; response: JsonObject; content: MediaType[] };

/** What every operation and webhook event has in common. */
type Walked = {
  method: HttpMethod;
  /** `#/paths/~1accounts/get` or `#/webhooks/webhook.test/post`. */
  pointer: string;
  /** The operation object as it stands in the document (an `x-` extension written to it lands in the document). */
  operation: JsonObject;
  pathItem: JsonObject;
  /** What a reader is shown: its summary, or its operationId (its event name for an event) when it has none. */
  summary: string;
  tags: string[];
  /** Path item and operation parameters together; an operation's own parameter replaces the path item's of its name. */
  parameters: OperationParameter[];
  requestBody: RequestBody | undefined;
  responses: OperationResponse[];
  /** The operation's requirements, or the document's when it names none. */
  security: JsonObject[];
};

export type Operation = Walked & { path: string; operationId: string };
export type WebhookEvent = Walked & { name: string; operationId: string | undefined };

function contentOf(doc: OpenApiDocument, owner: Located): MediaType[] {
  return Object.entries((owner.value.content ?? {}) as Record<string, JsonObject>).map(([mediaType, media]) => {
    const schema = locate<JsonObject | undefined>(doc, media.schema, `${owner.pointer}/content/${escapePointer(mediaType)}/schema`);
    return { mediaType, media, schema: schema.value, schemaPointer: schema.pointer };
  });
}

function parametersOf(
  doc: OpenApiDocument,
  pathItem: JsonObject,
  operation: JsonObject,
  itemPointer: string,
  operationPointer: string,
): OperationParameter[] {
  const found: OperationParameter[] = [];
  const seen = new Set<string>();
  const collect = (list: unknown, pointer: string) => {
    for (const [index, raw] of ((list as unknown[] | undefined) ?? []).entries()) {
      const { value: parameter, pointer: at } = locate<Parameter>(doc, raw, `${pointer}/${index}`);
      const key = `${parameter.in}:${parameter.name}`;
      if (seen.has(key)) continue;
      seen.add(key);
      const schema = locate<JsonObject | undefined>(doc, parameter.schema, `${at}/schema`);
      found.push({ ...parameter, required: parameter.required === true, schema: schema.value, pointer: at, schemaPointer: schema.pointer });
    }
  };
  collect(operation.parameters, `${operationPointer}/parameters`);
  collect(pathItem.parameters, `${itemPointer}/parameters`);
  return found;
}

function walk(doc: OpenApiDocument, pathItem: JsonObject, itemPointer: string, method: HttpMethod, fallbackSummary: string): Walked {
  const operation = pathItem[method] as JsonObject;
  const pointer = `${itemPointer}/${method}`;
  const body = operation.requestBody === undefined ? undefined : locate(doc, operation.requestBody, `${pointer}/requestBody`);
  return {
    method,
    pointer,
    operation,
    pathItem,
    summary: typeof operation.summary === 'string' ? operation.summary : fallbackSummary,
    tags: Array.isArray(operation.tags) ? operation.tags.map(String) : [],
    parameters: parametersOf(doc, pathItem, operation, itemPointer, pointer),
    requestBody: body && { required: body.value.required === true, pointer: body.pointer, body: body.value, content: contentOf(doc, body) },
    responses: Object.entries((operation.responses ?? {}) as Record<string, unknown>).map(([status, raw]) => {
      const response = locate(doc, raw, `${pointer}/responses/${status}`);
      return { status, pointer: response.pointer, response: response.value, content: contentOf(doc, response) };
    }),
    security: (operation.security ?? doc.security ?? []) as JsonObject[],
  };
}

/** Every operation of the document's paths, in document order. Throws when one has no operationId. */
export function operationsOf(doc: OpenApiDocument): Operation[] {
  return Object.entries(doc.paths ?? {}).flatMap(([path, pathItem]) =>
    httpMethods
      .filter((method) => pathItem[method])
      .map((method) => {
        const operationId = pathItem[method]!.operationId;
        if (typeof operationId !== 'string') throw new Error(`${method.toUpperCase()} ${path} has no operationId`);
        return { ...walk(doc, pathItem, `#/paths/${escapePointer(path)}`, method, operationId), path, operationId };
      }),
  );
}

/** Every webhook event (the keys of `webhooks`), in document order. */
export function webhooksOf(doc: OpenApiDocument): WebhookEvent[] {
  return Object.entries(doc.webhooks ?? {}).flatMap(([name, pathItem]) =>
    httpMethods
      .filter((method) => pathItem[method])
      .map((method) => {
        const operationId = pathItem[method]!.operationId;
        return {
          ...walk(doc, pathItem, `#/webhooks/${escapePointer(name)}`, method, name),
          name,
          operationId: typeof operationId === 'string' ? operationId : undefined,
        };
      }),
  );
}
