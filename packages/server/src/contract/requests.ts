// Request validation from the bundled description (openapi/dist/<document>.json): each operation's parameters and
// body schemas, as the shared walk of the description (`operationsOf`) finds them, checked with the process's shared
// ContractValidator, and the failures turned into `params` naming each field. A schema is compiled when a request
// first needs it: compiling those of every document costs a server about 120 ms of CPU at start, mostly for
// operations it may never serve (a test's server serves a few).
import { ContractValidator, type DocumentName, deref, type JsonObject, operationsOf } from '@aggregation/openapi/contract';
import type { ErrorObject } from 'ajv/dist/2020.js';
import { addParam, type ErrorParams, newParams } from '../domain/errors.ts';

export type ParamLocation = 'path' | 'query' | 'header';

/** A schema's check, as ajv's: the data's verdict, and the errors of the last data it refused. */
interface SchemaCheck {
  (data: unknown): boolean;
  errors?: ErrorObject[] | null;
}

/** The check of the schema at `pointer`, compiled on its first call (then kept by the ContractValidator). */
function compiledOnUse(contract: ContractValidator, pointer: string): SchemaCheck {
  const check: SchemaCheck = (data) => {
    const validate = contract.validatorAt(pointer);
    const valid = validate(data);
    check.errors = validate.errors;
    return valid;
  };
  return check;
}

interface ParamCheck {
  name: string;
  in: ParamLocation;
  required: boolean;
  schema: JsonObject;
  /** The schema's types (through $ref and anyOf/oneOf/allOf), resolved once: text is coerced by them. */
  types: ReadonlySet<string>;
  validate: SchemaCheck;
}

/** A branch of a root `oneOf`, told apart by its `const` properties (e.g. an event `type`). */
interface Branch {
  consts: Record<string, unknown>;
  validate: SchemaCheck;
}

interface MediaCheck {
  schema: JsonObject;
  validate: SchemaCheck;
  branches: Branch[];
}

interface BodyCheck {
  required: boolean;
  media: Map<string, MediaCheck>;
}

export interface OperationCheck {
  operationId: string;
  params: ParamCheck[];
  body: BodyCheck | undefined;
}

export interface RequestInput {
  path: Record<string, string>;
  query: Record<string, string>;
  headers: Headers;
  /** The parsed body and its media type, when there is one. */
  body?: { mediaType: string; value: unknown } | undefined;
}

export interface ValidatedRequest {
  params: Record<string, unknown>;
  body: unknown;
}

/** NUL (PostgreSQL's text refuses it) or a UTF-16 surrogate without its pair (no UTF-8 can hold it). */
const UNSTORABLE = /\0|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
const UNSTORABLE_MESSAGE = 'must not contain NUL characters or unpaired surrogates';

/** Whether every store keeps `text` and reads it back unchanged. */
export const isStorableText = (text: string): boolean => !UNSTORABLE.test(text);

/**
 * The fields of a parsed body (dotted, as in `params`) whose key or text no store can keep. Walked
 * without recursion: a body may nest as deep as its size allows.
 */
function unstorableFields(body: unknown): string[] {
  const out: string[] = [];
  const pending: [unknown, string][] = [[body, '']];
  for (let next = pending.pop(); next; next = pending.pop()) {
    const [value, field] = next;
    if (typeof value === 'string') {
      if (!isStorableText(value)) out.push(field || 'body');
    } else if (value !== null && typeof value === 'object') {
      for (const [key, child] of Object.entries(value)) {
        const path = field ? `${field}.${key}` : key;
        if (isStorableText(key)) pending.push([child, path]);
        else out.push(path);
      }
    }
  }
  return out;
}

/** Parameters handled by middleware of their own, not by the schema check. */
const SKIPPED_HEADERS = new Set(['service-version', 'authorization']);

export class RequestValidator {
  readonly contract: ContractValidator;
  private readonly operations = new Map<string, OperationCheck>();

  constructor(contract: ContractValidator) {
    this.contract = contract;
    for (const { operationId, parameters, requestBody } of operationsOf(contract.doc)) {
      const params: ParamCheck[] = parameters
        .filter((param) => param.in !== 'cookie' && !(param.in === 'header' && SKIPPED_HEADERS.has(param.name.toLowerCase())))
        .map((param) => ({
          name: param.name,
          in: param.in as ParamLocation,
          required: param.required,
          schema: param.schema ?? {},
          types: typesOf(contract, param.schema ?? {}),
          validate: compiledOnUse(contract, param.schemaPointer),
        }));
      const body: BodyCheck | undefined = requestBody && {
        required: requestBody.required,
        media: new Map(
          requestBody.content.map(({ mediaType, schema = {}, schemaPointer }) => {
            const branches = ((schema.oneOf as JsonObject[] | undefined) ?? []).map((branch, index) => ({
              consts: constsOf(deref(contract.doc, branch)),
              validate: compiledOnUse(contract, `${schemaPointer}/oneOf/${index}`),
            }));
            return [mediaType, { schema, validate: compiledOnUse(contract, schemaPointer), branches }];
          }),
        ),
      };
      this.operations.set(operationId, { operationId, params, body });
    }
  }

  static forDocument(name: DocumentName): RequestValidator {
    return new RequestValidator(ContractValidator.shared(name));
  }

  has(operationId: string): boolean {
    return this.operations.has(operationId);
  }

  /** Names of the operation's query parameters. */
  queryNames(operationId: string): string[] {
    return this.paramNames(operationId, 'query');
  }

  /** Names of the operation's parameters in `location` that this validator checks. */
  paramNames(operationId: string, location: ParamLocation): string[] {
    return (this.operations.get(operationId)?.params ?? []).filter((param) => param.in === location).map((param) => param.name);
  }

  /** Media types the operation's body accepts. */
  mediaTypes(operationId: string): string[] {
    return [...(this.operations.get(operationId)?.body?.media.keys() ?? [])];
  }

  /**
   * Validates a request; returns the coerced parameters and body, or the invalid fields: 422, or 404
   * when a path parameter holds text no id can hold (so that it answers as an unknown id does).
   */
  validate(operationId: string, input: RequestInput): { ok: true; value: ValidatedRequest } | { ok: false; status: 404 | 422; params: ErrorParams } {
    const check = this.operations.get(operationId);
    if (!check) throw new Error(`operation ${operationId} is not in the description`);
    const errors = newParams();
    const add = (field: string, message: string) => addParam(errors, field, message);
    const params: Record<string, unknown> = {};
    let unknownId = false;

    for (const param of check.params) {
      const raw =
        param.in === 'path' ? input.path[param.name] : param.in === 'query' ? input.query[param.name] : (input.headers.get(param.name) ?? undefined);
      // An empty query value (`?count=`) is a value, and the schema judges it; only a missing one is absent.
      if (raw === undefined) {
        if (param.required) add(param.name, 'is required');
        continue;
      }
      if (!isStorableText(raw)) {
        if (param.in === 'path') unknownId = true;
        else add(param.name, UNSTORABLE_MESSAGE);
        continue;
      }
      const value = coerceScalar(param.types, raw);
      if (!param.validate(value)) {
        for (const error of param.validate.errors ?? []) add(param.name, messageOf(error));
        continue;
      }
      params[param.name] = value;
    }

    let body: unknown;
    if (check.body) {
      if (!input.body) {
        if (check.body.required) add('body', 'is required');
      } else {
        // A form body is checked against the JSON schema when no form schema is described.
        const media = check.body.media.get(input.body.mediaType) ?? check.body.media.get('application/json');
        if (!media) {
          add('body', `must be one of: ${[...check.body.media.keys()].join(', ')}`);
        } else {
          body =
            input.body.mediaType === 'application/x-www-form-urlencoded' ? coerceForm(this.contract, media.schema, input.body.value) : input.body.value;
          for (const field of unstorableFields(body)) add(field, UNSTORABLE_MESSAGE);
          if (!media.validate(body)) {
            for (const [field, messages] of Object.entries(bodyErrors(media, body))) {
              for (const message of messages) add(field, message);
            }
          }
        }
      }
    }
    if (unknownId) return { ok: false, status: 404, params: errors };
    if (Object.keys(errors).length > 0) return { ok: false, status: 422, params: errors };
    return { ok: true, value: { params, body } };
  }
}

/** Query, path and header values arrive as text: turn them into what the schema expects. */
function coerceScalar(types: ReadonlySet<string>, raw: string): unknown {
  if ((types.has('integer') || types.has('number')) && /^-?\d+(\.\d+)?$/.test(raw)) return Number(raw);
  if (types.has('boolean') && (raw === 'true' || raw === 'false')) return raw === 'true';
  return raw;
}

function typesOf(contract: ContractValidator, schema: JsonObject | undefined): Set<string> {
  const resolved = schema ? deref(contract.doc, schema) : undefined;
  const types = new Set<string>();
  if (!resolved) return types;
  const type = resolved.type;
  if (typeof type === 'string') types.add(type);
  if (Array.isArray(type)) for (const t of type) types.add(String(t));
  for (const key of ['anyOf', 'oneOf', 'allOf'] as const) {
    for (const sub of (resolved[key] as JsonObject[] | undefined) ?? []) for (const t of typesOf(contract, sub)) types.add(t);
  }
  return types;
}

/** Form fields are all text; nested objects come from `a[b]` names. Coerce leaves by the schema. */
function coerceForm(contract: ContractValidator, schema: JsonObject, value: unknown): unknown {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    return typeof value === 'string' ? coerceScalar(typesOf(contract, schema), value) : value;
  }
  const resolved = deref(contract.doc, schema);
  const properties = (resolved.properties ?? {}) as Record<string, JsonObject>;
  const out: Record<string, unknown> = Object.create(null);
  for (const [key, child] of Object.entries(value as Record<string, unknown>)) {
    out[key] = Object.hasOwn(properties, key) ? coerceForm(contract, properties[key]!, child) : child;
  }
  return out;
}

function messageOf(error: ErrorObject): string {
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'required':
      return 'is required';
    case 'additionalProperties':
      return 'is not allowed';
    case 'type':
      return `must be of type ${String(params.type).replace(',', ' or ')}`;
    case 'enum':
      return `must be one of: ${(params.allowedValues as unknown[]).join(', ')}`;
    case 'const':
      return `must be ${String(params.allowedValue)}`;
    case 'format':
      return `must be a valid ${String(params.format)}`;
    case 'pattern':
      return `must match the pattern ${String(params.pattern)}`;
    default:
      return error.message ?? 'is invalid';
  }
}

/** Names the field of each error, dotted for nested fields (`payee.address`). */
function fieldErrors(errors: ErrorObject[]): ErrorParams {
  const out = newParams();
  for (const error of errors) {
    if (error.keyword === 'oneOf' || error.keyword === 'anyOf' || error.keyword === 'if') continue;
    const segments = error.instancePath
      .split('/')
      .slice(1)
      .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
    const params = error.params as Record<string, unknown>;
    if (error.keyword === 'required') segments.push(String(params.missingProperty));
    if (error.keyword === 'additionalProperties') segments.push(String(params.additionalProperty));
    const field = segments.length > 0 ? segments.join('.') : 'body';
    addParam(out, field, messageOf(error));
  }
  if (Object.keys(out).length === 0 && errors.length > 0) out.body = [messageOf(errors[0]!)];
  return out;
}

/**
 * With a root `oneOf`, every branch reports its failures. Report those of the branch the
 * client meant (its `const` properties match the body); when none matches, the discriminator.
 */
function bodyErrors(media: MediaCheck, body: unknown): ErrorParams {
  if (media.branches.length === 0) return fieldErrors(media.validate.errors ?? []);
  const data = (body ?? {}) as Record<string, unknown>;
  const meant = media.branches.find((branch) => Object.entries(branch.consts).every(([key, value]) => data[key] === value));
  if (meant) {
    meant.validate(body);
    return fieldErrors(meant.validate.errors ?? []);
  }
  const out = newParams();
  for (const key of new Set(media.branches.flatMap((branch) => Object.keys(branch.consts)))) {
    const allowed = media.branches.map((branch) => branch.consts[key]).filter((value) => value !== undefined);
    out[key] = [data[key] === undefined ? 'is required' : `must be one of: ${allowed.join(', ')}`];
  }
  return Object.keys(out).length > 0 ? out : fieldErrors(media.validate.errors ?? []);
}

function constsOf(schema: JsonObject): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, property] of Object.entries((schema.properties ?? {}) as Record<string, JsonObject>)) {
    if ('const' in property) out[key] = property.const;
  }
  return out;
}
