// Whether a request the integrator's command sent keeps the description: a documented operation, its parameters and
// body, its authentication, a known `Service-Version`, an `Idempotency-Key` on every payment. Read through the
// description's one walk and the shared validator of @aggregation/openapi, never a hand-copied schema.
import { type ContractValidator, type DocumentName, deref, type JsonObject, type Operation, operationsOf } from '@aggregation/openapi/contract';
import { VERSIONS } from '@aggregation/openapi/versions';
import { documentOf, validatorOf } from '../coverage.ts';
import type { Exchange } from '../recorder.ts';

/** The rules a request is judged by, as they are named in failures. */
export const REQUEST_RULES = {
  operation: 'documented operation',
  version: 'known Service-Version',
  parameters: 'documented parameters',
  body: 'request body',
  authentication: 'authentication',
  idempotencyKey: 'Idempotency-Key on every payment',
} as const;
export type RequestRule = (typeof REQUEST_RULES)[keyof typeof REQUEST_RULES];

export type RequestProblem = { rule: RequestRule; message: string };

export type JudgedRequest = {
  document: DocumentName;
  /** `POST /accounts/{account_id}/payments`, or null when no documented operation matches. */
  operation: string | null;
  operationId: string | null;
  problems: RequestProblem[];
};

/** The operation that creates a payment: every one needs an Idempotency-Key. */
export const PAYMENT_OPERATION = 'createPayment';

const operationsByDocument = new Map<DocumentName, Map<string, Operation>>();

/** The document's operations by operationId, walked once. */
export function operationsById(document: DocumentName): Map<string, Operation> {
  let found = operationsByDocument.get(document);
  if (!found) {
    found = new Map(operationsOf(validatorOf(document).doc).map((o) => [o.operationId, o]));
    operationsByDocument.set(document, found);
  }
  return found;
}

/** The description's types of a schema (through `$ref` and `anyOf`/`oneOf`), to read text as it means. */
function typesOf(validator: ContractValidator, schema: JsonObject | undefined): Set<string> {
  const types = new Set<string>();
  const pending = [schema];
  for (let next = pending.pop(); next; next = pending.pop()) {
    const resolved = deref(validator.doc, next);
    if (typeof resolved.type === 'string') types.add(resolved.type);
    if (Array.isArray(resolved.type)) for (const t of resolved.type) types.add(String(t));
    for (const key of ['anyOf', 'oneOf', 'allOf']) for (const branch of (resolved[key] as JsonObject[] | undefined) ?? []) pending.push(branch);
  }
  return types;
}

/** Text from a path, query or header read as the schema's type, as the server reads it. */
function coerce(types: Set<string>, raw: string): unknown {
  if ((types.has('integer') || types.has('number')) && /^-?\d+(\.\d+)?$/.test(raw)) return Number(raw);
  if (types.has('boolean') && (raw === 'true' || raw === 'false')) return raw === 'true';
  return raw;
}

const basicUser = (value: string): string | undefined => {
  const match = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(value);
  if (!match) return undefined;
  const decoded = Buffer.from(match[1]!, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  return colon < 0 ? undefined : decoded.slice(0, colon);
};

/** Whether the request's credentials satisfy one of the operation's security requirements. */
function authenticationProblem(validator: ContractValidator, operation: Operation, headers: Record<string, string>): string | undefined {
  const requirements = operation.security;
  if (requirements.length === 0 || requirements.some((r) => Object.keys(r).length === 0)) return undefined;
  const schemes = (validator.doc.components?.securitySchemes ?? {}) as Record<string, JsonObject>;
  const authorization = headers.authorization;
  const satisfied = (name: string): boolean => {
    const scheme = schemes[name];
    if (!scheme) return false;
    if (scheme.type === 'http' && String(scheme.scheme).toLowerCase() === 'basic') return !!authorization && !!basicUser(authorization);
    if (scheme.type === 'apiKey' && scheme.in === 'header') return !!headers[String(scheme.name).toLowerCase()];
    // A TLS client certificate cannot be seen here, and the sandbox needs none.
    return false;
  };
  if (requirements.some((requirement) => Object.keys(requirement).every(satisfied))) return undefined;
  const documented = requirements
    .flatMap((r) => Object.keys(r).filter((name) => name !== 'mutualTLS'))
    .filter((name, i, all) => all.indexOf(name) === i)
    .map((name) => {
      const scheme = schemes[name]!;
      return scheme.type === 'http' ? `HTTP ${String(scheme.scheme)} with the token as the username` : `the ${String(scheme.name)} header (${name})`;
    });
  return authorization
    ? `the Authorization header is not as documented (${documented.join(', or ')})`
    : `no credentials: the operation needs ${documented.join(', or ')}`;
}

/** Headers a request carries that the walk lists as parameters but that are judged by rules of their own. */
const headersJudgedApart = new Set(['service-version', 'authorization', 'idempotency-key']);

function parameterProblems(validator: ContractValidator, operation: Operation, pathParams: Record<string, string>, exchange: Exchange): string[] {
  const problems: string[] = [];
  const query = new URL(exchange.url).searchParams;
  for (const parameter of operation.parameters) {
    if (parameter.in === 'cookie' || (parameter.in === 'header' && headersJudgedApart.has(parameter.name.toLowerCase()))) continue;
    const raw =
      parameter.in === 'path'
        ? pathParams[parameter.name]
        : parameter.in === 'query'
          ? (query.get(parameter.name) ?? undefined)
          : exchange.requestHeaders[parameter.name.toLowerCase()];
    if (raw === undefined) {
      if (parameter.required) problems.push(`${parameter.in} parameter ${parameter.name} is required and was not sent`);
      continue;
    }
    const value = coerce(typesOf(validator, parameter.schema), raw);
    for (const problem of validator.validateAt(parameter.schemaPointer, value))
      problems.push(`${parameter.in} parameter ${parameter.name}=${JSON.stringify(raw)}: ${problem.message.replace(/^\(root\) /, '')}`);
  }
  const known = new Set(operation.parameters.filter((p) => p.in === 'query').map((p) => p.name));
  for (const name of new Set(query.keys()))
    if (!known.has(name)) problems.push(`query parameter ${name} is not in the description (documented: ${[...known].join(', ') || 'none'})`);
  return problems;
}

function bodyProblems(validator: ContractValidator, operation: Operation, exchange: Exchange): string[] {
  const sent = exchange.requestBody !== '';
  if (!operation.requestBody) return sent ? ['a body was sent to an operation that takes none'] : [];
  if (!sent) return operation.requestBody.required ? ['the operation needs a body and none was sent'] : [];
  const contentType = (exchange.requestHeaders['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  const media = operation.requestBody.content.find((m) => m.mediaType === contentType);
  if (!media) {
    const documented = operation.requestBody.content.map((m) => m.mediaType).join(', ');
    return [`Content-Type ${contentType ? `"${contentType}"` : 'missing'}: the description takes ${documented}`];
  }
  if (!/json/.test(media.mediaType)) return [];
  let body: unknown;
  try {
    body = JSON.parse(exchange.requestBody);
  } catch {
    return [`the body is not JSON: ${JSON.stringify(exchange.requestBody.slice(0, 80))}${exchange.requestBody.length > 80 ? '…' : ''}`];
  }
  return validator.validateAt(media.schemaPointer, body).map((p) => `body ${p.message.replace(/^\(root\)/, '(the whole body)')}`);
}

/** Judges one request of the command against the document it addresses. */
export function judgeRequest(exchange: Exchange): JudgedRequest {
  const problems: RequestProblem[] = [];
  const asked = exchange.requestHeaders['service-version'];
  if (asked !== undefined && exchange.path !== '/sandbox' && !exchange.path.startsWith('/sandbox/') && !(VERSIONS as readonly string[]).includes(asked))
    problems.push({
      rule: REQUEST_RULES.version,
      message: `Service-Version ${JSON.stringify(asked)} is not a version of the API (known: ${VERSIONS.join(', ')})`,
    });
  const document = documentOf(exchange);
  const validator = validatorOf(document);
  const matched = validator.match(exchange.method, exchange.path);
  const operationId = matched && typeof matched.operation.operationId === 'string' ? matched.operation.operationId : undefined;
  const operation = operationId ? operationsById(document).get(operationId) : undefined;
  if (!matched || !operation) {
    const allowed = validator.allowedMethods(exchange.path);
    problems.push({
      rule: REQUEST_RULES.operation,
      message: allowed.length
        ? `${exchange.method} is not documented for ${exchange.path} (documented: ${allowed.join(', ')})`
        : `no such path in the description (${document})`,
    });
    return { document, operation: null, operationId: null, problems };
  }
  for (const message of parameterProblems(validator, operation, matched.params, exchange)) problems.push({ rule: REQUEST_RULES.parameters, message });
  for (const message of bodyProblems(validator, operation, exchange)) problems.push({ rule: REQUEST_RULES.body, message });
  const auth = authenticationProblem(validator, operation, exchange.requestHeaders);
  if (auth) problems.push({ rule: REQUEST_RULES.authentication, message: auth });
  if (operation.operationId === PAYMENT_OPERATION) {
    const key = exchange.requestHeaders['idempotency-key'];
    if (!key?.trim())
      problems.push({ rule: REQUEST_RULES.idempotencyKey, message: 'a payment was sent without an Idempotency-Key: a retry of it could pay twice' });
    else {
      const keyParameter = operation.parameters.find((p) => p.in === 'header' && p.name.toLowerCase() === 'idempotency-key');
      if (keyParameter)
        for (const p of validator.validateAt(keyParameter.schemaPointer, key))
          problems.push({
            rule: REQUEST_RULES.idempotencyKey,
            message: `Idempotency-Key ${JSON.stringify(key)}: ${p.message.replace(/^\(root\) /, '')}`,
          });
    }
  }
  return { document, operation: `${operation.method.toUpperCase()} ${operation.path}`, operationId: operation.operationId, problems };
}
