// What changed between two versions of the description, computed from the two bundles: schemas and their
// properties, operations (parameters, request bodies, responses, security), webhook events and security
// schemes. Prose (descriptions, examples) is left out: only what a client's code depends on counts.
import { type JsonObject, type OpenApiDocument, operationsOf } from '@aggregation/openapi/contract';

export type Added = { name: string; type: string };
export type TypeChange = { name: string; from: string; to: string };

export type SchemaDiff = {
  name: string;
  /** Set when the schema itself changed type (say an array became an object). */
  type?: { from: string; to: string };
  properties: { added: Added[]; removed: Added[]; changed: TypeChange[] };
  required: { added: string[]; removed: string[] };
};

export type ShapeChange = {
  /** Response status, parameter or media type. */
  name: string;
  from: string;
  to: string;
  /** Changed schemas this part reaches, which explain a change of shape under the same type name. */
  via: string[];
};

export type OperationKey = { method: string; path: string; operationId: string | undefined };

export type OperationDiff = OperationKey & {
  parameters: { added: string[]; removed: string[]; changed: ShapeChange[] };
  requestBody: ShapeChange | undefined;
  responses: { added: string[]; removed: string[]; changed: ShapeChange[] };
  security: { from: string; to: string } | undefined;
};

export type WebhookDiff = { name: string; payload: ShapeChange };

export type SecuritySchemeDiff = { name: string; from: string; to: string };

export type Changes = {
  from: string;
  to: string;
  schemas: { added: string[]; removed: string[]; changed: SchemaDiff[] };
  operations: { added: OperationKey[]; removed: OperationKey[]; changed: OperationDiff[] };
  webhooks: { added: string[]; removed: string[]; changed: WebhookDiff[] };
  securitySchemes: { added: string[]; removed: string[]; changed: SecuritySchemeDiff[] };
  /** The document-wide security requirements, when they differ. */
  security: { from: string; to: string } | undefined;
};

// Keys that document rather than constrain: a change in them is not a change for client code.
const proseKeys = new Set(['description', 'summary', 'examples', 'example', 'externalDocs', '$comment', 'title']);

type Json = unknown;

function isObject(value: Json): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function refName(ref: string): string {
  return ref.slice(ref.lastIndexOf('/') + 1);
}

/** Follows a local `$ref` ("#/components/schemas/Account"). */
function resolve(document: OpenApiDocument, node: Json): Json {
  let current = node;
  for (let hops = 0; isObject(current) && typeof current.$ref === 'string' && hops < 20; hops++) {
    let target: Json = document;
    for (const part of current.$ref.replace(/^#\//, '').split('/')) {
      target = isObject(target) ? target[part.replaceAll('~1', '/').replaceAll('~0', '~')] : undefined;
    }
    current = target;
  }
  return current;
}

/** A short type label: `Account[]`, `string | null`, `"ach" | "wire"`, `string<date>`. */
export function typeLabel(schema: Json): string {
  if (!isObject(schema)) return 'any';
  if (typeof schema.$ref === 'string') return refName(schema.$ref);
  if ('const' in schema) return JSON.stringify(schema.const);
  if (Array.isArray(schema.enum)) return schema.enum.map((value) => JSON.stringify(value)).join(' | ');
  for (const [key, joiner] of [
    ['oneOf', ' | '],
    ['anyOf', ' | '],
    ['allOf', ' & '],
  ] as const) {
    const parts = schema[key];
    if (Array.isArray(parts)) return parts.map(typeLabel).join(joiner);
  }
  const types = Array.isArray(schema.type) ? schema.type : typeof schema.type === 'string' ? [schema.type] : [];
  if (types.length === 0) return 'any';
  return types
    .map((type) => {
      if (type === 'array') return `${typeLabel(schema.items)}[]`;
      if (type === 'string' && typeof schema.format === 'string') return `string<${schema.format}>`;
      return String(type);
    })
    .join(' | ');
}

/** The schema with every reference inlined and the prose left out, as a comparable string. */
function shape(document: OpenApiDocument, node: Json, seen: readonly string[] = []): Json {
  if (Array.isArray(node)) return node.map((item) => shape(document, item, seen));
  if (!isObject(node)) return node;
  if (typeof node.$ref === 'string') {
    if (seen.includes(node.$ref)) return { $ref: node.$ref };
    return shape(document, resolve(document, node), [...seen, node.$ref]);
  }
  const out: JsonObject = {};
  for (const key of Object.keys(node).sort()) {
    if (proseKeys.has(key) || key.startsWith('x-')) continue;
    out[key] = shape(document, node[key], seen);
  }
  return out;
}

function sameShape(a: OpenApiDocument, x: Json, b: OpenApiDocument, y: Json): boolean {
  return JSON.stringify(shape(a, x)) === JSON.stringify(shape(b, y));
}

/** Names of the component schemas a node reaches, transitively. */
function reachedSchemas(document: OpenApiDocument, node: Json, into = new Set<string>()): Set<string> {
  if (Array.isArray(node)) for (const item of node) reachedSchemas(document, item, into);
  else if (isObject(node)) {
    const ref = node.$ref;
    if (typeof ref === 'string') {
      if (ref.startsWith('#/components/schemas/')) {
        const name = refName(ref);
        if (into.has(name)) return into;
        into.add(name);
      }
      reachedSchemas(document, resolve(document, node), into);
    } else for (const value of Object.values(node)) reachedSchemas(document, value, into);
  }
  return into;
}

function schemasOf(document: OpenApiDocument): Record<string, JsonObject> {
  return (document.components?.schemas ?? {}) as Record<string, JsonObject>;
}

function keyDiff<T>(from: Record<string, T>, to: Record<string, T>): { added: string[]; removed: string[]; common: string[] } {
  return {
    added: Object.keys(to).filter((key) => !(key in from)),
    removed: Object.keys(from).filter((key) => !(key in to)),
    common: Object.keys(to).filter((key) => key in from),
  };
}

function diffSchema(name: string, from: JsonObject, to: JsonObject): SchemaDiff | undefined {
  const fromProps = (isObject(from.properties) ? from.properties : {}) as Record<string, Json>;
  const toProps = (isObject(to.properties) ? to.properties : {}) as Record<string, Json>;
  const keys = keyDiff(fromProps, toProps);
  const changed = keys.common
    .map((prop) => ({ name: prop, from: typeLabel(fromProps[prop]), to: typeLabel(toProps[prop]) }))
    .filter((change) => change.from !== change.to);
  const fromRequired = Array.isArray(from.required) ? (from.required as string[]) : [];
  const toRequired = Array.isArray(to.required) ? (to.required as string[]) : [];
  const diff: SchemaDiff = {
    name,
    properties: {
      added: keys.added.map((prop) => ({ name: prop, type: typeLabel(toProps[prop]) })),
      removed: keys.removed.map((prop) => ({ name: prop, type: typeLabel(fromProps[prop]) })),
      changed,
    },
    // Only properties present in both versions: a new property's requiredness shows with its addition.
    required: {
      added: toRequired.filter((prop) => !fromRequired.includes(prop) && prop in fromProps),
      removed: fromRequired.filter((prop) => !toRequired.includes(prop) && prop in toProps),
    },
  };
  const fromType = typeLabel(from);
  const toType = typeLabel(to);
  if (fromType !== toType) diff.type = { from: fromType, to: toType };
  const empty =
    !diff.type &&
    diff.properties.added.length + diff.properties.removed.length + diff.properties.changed.length === 0 &&
    diff.required.added.length + diff.required.removed.length === 0;
  return empty ? undefined : diff;
}

type Context = { from: OpenApiDocument; to: OpenApiDocument; changedSchemas: Set<string> };

/** A change of a parameter's shape, or undefined when it has the same shape in both versions. */
function parameterChange(context: Context, name: string, from: Json, to: Json): ShapeChange | undefined {
  if (sameShape(context.from, from, context.to, to)) return undefined;
  const schemaOf = (node: Json) => typeLabel(isObject(node) ? node.schema : undefined);
  return { name, from: schemaOf(from), to: schemaOf(to), via: changedVia(context, to) };
}

/** A change of a body (request body, response, webhook payload: content and headers), or undefined. */
function bodyChange(context: Context, name: string, from: Json, to: Json): ShapeChange | undefined {
  if (sameShape(context.from, contentShape(context.from, from), context.to, contentShape(context.to, to))) return undefined;
  return { name, from: contentLabel(context.from, from), to: contentLabel(context.to, to), via: changedVia(context, to) };
}

function changedVia(context: Context, node: Json): string[] {
  return [...reachedSchemas(context.to, node)].filter((schema) => context.changedSchemas.has(schema));
}

/** `Account[] (application/json)`, one entry per media type. */
function contentLabel(document: OpenApiDocument, holder: Json): string {
  const resolved = resolve(document, holder);
  if (!isObject(resolved) || !isObject(resolved.content)) return 'no body';
  return Object.entries(resolved.content)
    .map(([mediaType, media]) => `${typeLabel(isObject(media) ? media.schema : undefined)} (${mediaType})`)
    .join(', ');
}

function contentShape(document: OpenApiDocument, holder: Json): Json {
  const resolved = resolve(document, holder);
  return isObject(resolved) ? { content: resolved.content ?? null, headers: resolved.headers ?? null } : null;
}

function parametersOf(document: OpenApiDocument, pathItem: JsonObject, operation: JsonObject): Record<string, Json> {
  const all = [
    ...(Array.isArray(pathItem.parameters) ? pathItem.parameters : []),
    ...(Array.isArray(operation.parameters) ? operation.parameters : []),
  ];
  const byKey: Record<string, Json> = {};
  for (const parameter of all) {
    const resolved = resolve(document, parameter);
    if (isObject(resolved)) byKey[`${String(resolved.in)} ${String(resolved.name)}`] = resolved;
  }
  return byKey;
}

function securityLabel(requirements: Json): string {
  if (!Array.isArray(requirements)) return 'none';
  if (requirements.length === 0) return 'none';
  return requirements.map((requirement) => (isObject(requirement) ? Object.keys(requirement).join(' + ') || 'anonymous' : '?')).join(' or ');
}

function diffOperation(context: Context, key: OperationKey, fromItem: JsonObject, toItem: JsonObject): OperationDiff | undefined {
  const from = fromItem[key.method] as JsonObject;
  const to = toItem[key.method] as JsonObject;
  const fromParams = parametersOf(context.from, fromItem, from);
  const toParams = parametersOf(context.to, toItem, to);
  const params = keyDiff(fromParams, toParams);
  const fromResponses = (isObject(from.responses) ? from.responses : {}) as Record<string, Json>;
  const toResponses = (isObject(to.responses) ? to.responses : {}) as Record<string, Json>;
  const responses = keyDiff(fromResponses, toResponses);
  // Security inherited from the document on both sides is reported once, with the document's.
  const ownSecurity = from.security !== undefined || to.security !== undefined;
  const fromSecurity = securityLabel(from.security ?? context.from.security);
  const toSecurity = securityLabel(to.security ?? context.to.security);

  const diff: OperationDiff = {
    ...key,
    parameters: {
      added: params.added,
      removed: params.removed,
      changed: params.common.flatMap((name) => parameterChange(context, name, fromParams[name], toParams[name]) ?? []),
    },
    requestBody: bodyChange(context, 'request body', from.requestBody, to.requestBody),
    responses: {
      added: responses.added,
      removed: responses.removed,
      changed: responses.common.flatMap((status) => bodyChange(context, status, fromResponses[status], toResponses[status]) ?? []),
    },
    security: !ownSecurity || fromSecurity === toSecurity ? undefined : { from: fromSecurity, to: toSecurity },
  };
  const count =
    diff.parameters.added.length +
    diff.parameters.removed.length +
    diff.parameters.changed.length +
    (diff.requestBody ? 1 : 0) +
    diff.responses.added.length +
    diff.responses.removed.length +
    diff.responses.changed.length +
    (diff.security ? 1 : 0);
  return count === 0 ? undefined : diff;
}

function operationKeys(document: OpenApiDocument): Map<string, OperationKey> {
  return new Map(operationsOf(document).map(({ method, path, operationId }) => [`${method.toUpperCase()} ${path}`, { method, path, operationId }]));
}

function webhookBody(item: JsonObject): Json {
  return isObject(item.post) ? item.post.requestBody : undefined;
}

/** The effective definition of a security scheme, without its prose. */
function schemeLabel(scheme: Json): string {
  if (!isObject(scheme)) return 'unknown';
  const { type, scheme: httpScheme, in: location, name, bearerFormat } = scheme;
  return [type, httpScheme, location && `in ${String(location)}`, name, bearerFormat].filter(Boolean).map(String).join(' ');
}

export function diffDocuments(from: OpenApiDocument, to: OpenApiDocument): Changes {
  const fromSchemas = schemasOf(from);
  const toSchemas = schemasOf(to);
  const schemaKeys = keyDiff(fromSchemas, toSchemas);
  const changedSchemas = schemaKeys.common.flatMap((name) => diffSchema(name, fromSchemas[name]!, toSchemas[name]!) ?? []);
  // `via` names the changed schemas behind a changed body; added ones show through the properties that use them.
  const context: Context = { from, to, changedSchemas: new Set(changedSchemas.map((schema) => schema.name)) };

  const fromOps = operationKeys(from);
  const toOps = operationKeys(to);
  const operations: Changes['operations'] = { added: [], removed: [], changed: [] };
  for (const [id, key] of toOps) if (!fromOps.has(id)) operations.added.push(key);
  for (const [id, key] of fromOps) if (!toOps.has(id)) operations.removed.push(key);
  for (const [id, key] of toOps) {
    if (!fromOps.has(id)) continue;
    const diff = diffOperation(context, key, from.paths![key.path]!, to.paths![key.path]!);
    if (diff) operations.changed.push(diff);
  }

  const fromHooks = (from.webhooks ?? {}) as Record<string, JsonObject>;
  const toHooks = (to.webhooks ?? {}) as Record<string, JsonObject>;
  const hookKeys = keyDiff(fromHooks, toHooks);
  const webhooks: Changes['webhooks'] = {
    added: hookKeys.added,
    removed: hookKeys.removed,
    changed: hookKeys.common.flatMap((name) => {
      const payload = bodyChange(context, 'payload', webhookBody(fromHooks[name]!), webhookBody(toHooks[name]!));
      return payload ? [{ name, payload }] : [];
    }),
  };

  const fromSchemes = (from.components?.securitySchemes ?? {}) as Record<string, Json>;
  const toSchemes = (to.components?.securitySchemes ?? {}) as Record<string, Json>;
  const schemeKeys = keyDiff(fromSchemes, toSchemes);
  const fromSecurity = securityLabel(from.security);
  const toSecurity = securityLabel(to.security);

  return {
    from: from.info.version,
    to: to.info.version,
    schemas: { added: schemaKeys.added, removed: schemaKeys.removed, changed: changedSchemas },
    operations,
    webhooks,
    securitySchemes: {
      added: schemeKeys.added,
      removed: schemeKeys.removed,
      changed: schemeKeys.common
        .map((name) => ({ name, from: schemeLabel(fromSchemes[name]), to: schemeLabel(toSchemes[name]) }))
        .filter((change) => change.from !== change.to),
    },
    security: fromSecurity === toSecurity ? undefined : { from: fromSecurity, to: toSecurity },
  };
}
