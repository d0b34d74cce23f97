// The one place that reads the bundled description and validates data against it. The spec's own tests, the
// server's tests and the contract tests all go through here, so nobody validates against a hand-copied schema.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule, { type FormatsPlugin } from 'ajv-formats';

// ajv-formats is CommonJS; under Node's ESM loader its plugin arrives as the `default` of the default export.
const addFormats: FormatsPlugin =
  (addFormatsModule as unknown as { default?: FormatsPlugin }).default ?? (addFormatsModule as unknown as FormatsPlugin);

export const documentNames = ['2020-10-12', '2019-07-01', 'sandbox'] as const;
export type DocumentName = (typeof documentNames)[number];
export const currentVersion = '2020-10-12';
export const versions = ['2020-10-12', '2019-07-01'] as const;

export const distDir = join(dirname(fileURLToPath(import.meta.url)), '..', 'dist');

export type JsonObject = { [key: string]: unknown };
export type OpenApiDocument = JsonObject & {
  openapi: string;
  info: JsonObject & { version: string };
  paths?: Record<string, Record<string, JsonObject>>;
  webhooks?: Record<string, Record<string, JsonObject>>;
  components?: Record<string, Record<string, JsonObject>>;
};

const bundleCache = new Map<DocumentName, OpenApiDocument>();

/** Reads a bundle written by `npm run build` (openapi/dist/<name>.json). */
export function loadBundle(name: DocumentName): OpenApiDocument {
  let bundle = bundleCache.get(name);
  if (!bundle) {
    bundle = JSON.parse(readFileSync(join(distDir, `${name}.json`), 'utf8')) as OpenApiDocument;
    bundleCache.set(name, bundle);
  }
  return bundle;
}

export const httpMethods = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

export type OperationRef = {
  method: string;
  path: string;
  operationId: string;
  operation: JsonObject;
  pathItem: JsonObject;
};

/** Every operation of a document, in document order. */
export function listOperations(doc: OpenApiDocument): OperationRef[] {
  const found: OperationRef[] = [];
  for (const [path, pathItem] of Object.entries(doc.paths ?? {})) {
    for (const method of httpMethods) {
      const operation = pathItem[method] as JsonObject | undefined;
      if (operation) found.push({ method, path, operationId: String(operation.operationId), operation, pathItem });
    }
  }
  return found;
}

export type Parameter = { name: string; in: 'path' | 'query' | 'header' | 'cookie'; required?: boolean; example?: unknown; schema?: JsonObject };

/** The parameters of an operation, those of its path item included, with references followed. */
export function operationParameters(doc: OpenApiDocument, path: string, operation: JsonObject): Parameter[] {
  const fromPath = (doc.paths?.[path]?.parameters ?? []) as unknown as unknown[];
  const fromOperation = (operation.parameters ?? []) as unknown[];
  return [...fromPath, ...fromOperation].map((parameter) => deref<Parameter>(doc, parameter));
}

/** Follows a local `$ref` (`#/components/...`) to its target; other values are returned as they are. */
export function deref<T = JsonObject>(doc: OpenApiDocument, value: unknown): T {
  let current = value as JsonObject;
  const seen = new Set<string>();
  while (current && typeof current.$ref === 'string') {
    const ref = current.$ref;
    if (seen.has(ref)) throw new Error(`circular $ref ${ref}`);
    seen.add(ref);
    current = resolvePointer(doc, ref) as JsonObject;
  }
  return current as T;
}

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

export type ValidationProblem = { where: string; message: string };

function describeErrors(where: string, errors: ErrorObject[] | null | undefined): ValidationProblem[] {
  return (errors ?? []).map((error) => ({
    where,
    message: `${error.instancePath || '(root)'} ${error.message ?? 'is invalid'}${
      error.params && Object.keys(error.params).length ? ` ${JSON.stringify(error.params)}` : ''
    }`,
  }));
}

type Matched = { path: string; pathItem: JsonObject; operation: JsonObject; params: Record<string, string> };

/**
 * Validates instances, requests and responses against one bundled document. Schemas are compiled once and cached,
 * references resolve inside the bundle.
 */
export class ContractValidator {
  readonly doc: OpenApiDocument;
  private readonly ajv: Ajv2020;
  private readonly compiled = new Map<string, ValidateFunction>();
  private readonly matchers: { regex: RegExp; names: string[]; path: string }[];

  constructor(doc: OpenApiDocument) {
    this.doc = doc;
    // strict is off because the document carries OpenAPI keywords (example, discriminator, x-*) besides JSON Schema.
    this.ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: true, logger: false });
    addFormats(this.ajv);
    this.ajv.addSchema(doc as object, 'contract.json');
    this.matchers = Object.keys(doc.paths ?? {})
      // Literal segments outrank templated ones, so /a/b matches before /a/{id}.
      .sort((a, b) => a.split('{').length - b.split('{').length)
      .map((path) => {
        const names: string[] = [];
        const pattern = path
          .split('/')
          .map((segment) =>
            segment.replace(/\{([^}]+)\}|[^{}]+/g, (part, name: string | undefined) => {
              if (name) {
                names.push(name);
                return '([^/]+)';
              }
              return part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
            }),
          )
          .join('/');
        return { regex: new RegExp(`^${pattern}$`), names, path };
      });
  }

  static forDocument(name: DocumentName): ContractValidator {
    return new ContractValidator(loadBundle(name));
  }

  /** A compiled validator for the schema at a JSON pointer into the bundle (e.g. `#/components/schemas/Account`). */
  validatorAt(pointer: string): ValidateFunction {
    let validate = this.compiled.get(pointer);
    if (!validate) {
      validate = this.ajv.compile({ $ref: `contract.json${pointer}` });
      this.compiled.set(pointer, validate);
    }
    return validate;
  }

  /** Validates `data` against an inline or referenced schema found in the bundle at `pointer`. */
  validateAt(pointer: string, data: unknown): ValidationProblem[] {
    const validate = this.validatorAt(pointer);
    return validate(data) ? [] : describeErrors(pointer, validate.errors);
  }

  /** Finds the documented operation for a concrete request path such as `/accounts/acc_1/transactions`. */
  match(method: string, concretePath: string): Matched | undefined {
    const lower = method.toLowerCase();
    for (const { regex, names, path } of this.matchers) {
      const found = regex.exec(concretePath);
      if (!found) continue;
      const pathItem = this.doc.paths![path]!;
      const operation = pathItem[lower] as JsonObject | undefined;
      if (!operation) continue;
      const params = Object.fromEntries(names.map((name, i) => [name, decodeURIComponent(found[i + 1]!)]));
      return { path, pathItem, operation, params };
    }
    return undefined;
  }

  /** The methods documented for a concrete path, in upper case; none when no documented path matches it. */
  allowedMethods(concretePath: string): string[] {
    const found = this.matchers.find(({ regex }) => regex.test(concretePath));
    if (!found) return [];
    const pathItem = this.doc.paths![found.path]!;
    return httpMethods.filter((method) => method in pathItem).map((method) => method.toUpperCase());
  }

  /**
   * Checks a response against the contract: the status is documented for the operation, the body validates
   * against the schema of its media type, and every documented header that is required is present and valid.
   */
  validateResponse(input: {
    method: string;
    path: string;
    status: number;
    headers: Headers | Record<string, string>;
    body?: unknown;
  }): ValidationProblem[] {
    const where = `${input.method.toUpperCase()} ${input.path} ${input.status}`;
    const matched = this.match(input.method, input.path.split('?')[0]!);
    if (!matched) return [{ where, message: 'no documented operation for this method and path' }];
    const pointerBase = `#/paths/${matched.path.replace(/~/g, '~0').replace(/\//g, '~1')}/${input.method.toLowerCase()}/responses`;
    const responses = (matched.operation.responses ?? {}) as Record<string, unknown>;
    const statusKey = [String(input.status), `${String(input.status)[0]}XX`, 'default'].find((key) => Object.hasOwn(responses, key));
    if (!statusKey) return [{ where, message: `status ${input.status} is not documented for this operation` }];
    const response = deref(this.doc, responses[statusKey]);
    const problems: ValidationProblem[] = [];
    const headers = input.headers instanceof Headers ? input.headers : new Headers(input.headers);

    for (const [name, rawHeader] of Object.entries((response.headers ?? {}) as Record<string, unknown>)) {
      const header = deref(this.doc, rawHeader);
      const value = headers.get(name);
      if (value === null) {
        if (header.required) problems.push({ where, message: `required header ${name} is missing` });
        continue;
      }
      if (header.schema) {
        const schemaPointer = pointerTo(this.doc, rawHeader, `${pointerBase}/${statusKey}/headers/${name}`);
        const coerced = coerceHeader(deref(this.doc, header.schema), value);
        problems.push(...this.validateAt(`${schemaPointer}/schema`, coerced).map((p) => ({ ...p, where: `${where} header ${name}` })));
      }
    }

    const content = response.content as Record<string, JsonObject> | undefined;
    const hasBody = input.body !== undefined && input.body !== null && input.body !== '';
    if (!content) {
      if (hasBody) problems.push({ where, message: 'a body was sent where the contract documents none' });
      return problems;
    }
    const contentType = (headers.get('content-type') ?? '').split(';')[0]!.trim();
    // Own keys only: a content type such as `constructor` is not a documented one.
    const documented = Object.hasOwn(content, contentType);
    const mediaKey = documented ? contentType : Object.keys(content)[0]!;
    if (!documented) problems.push({ where, message: `content type "${contentType}" is not documented` });
    const responsePointer = pointerTo(this.doc, responses[statusKey], `${pointerBase}/${statusKey}`);
    const schemaPointer = `${responsePointer}/content/${mediaKey.replace(/~/g, '~0').replace(/\//g, '~1')}/schema`;
    problems.push(...this.validateAt(schemaPointer, input.body).map((p) => ({ ...p, where })));
    return problems;
  }
}

/** The pointer of a possibly referenced object: its `$ref` target when it is one, otherwise where it stands. */
function pointerTo(doc: OpenApiDocument, value: unknown, fallback: string): string {
  let pointer = fallback;
  let current = value as JsonObject;
  while (current && typeof current.$ref === 'string') {
    pointer = current.$ref;
    current = resolvePointer(doc, pointer) as JsonObject;
  }
  return pointer;
}

/** Header values arrive as text; integers are compared as numbers. */
function coerceHeader(schema: JsonObject, value: string): unknown {
  const type = schema.type;
  if ((type === 'integer' || type === 'number') && /^-?\d+(\.\d+)?$/.test(value)) return Number(value);
  return value;
}
