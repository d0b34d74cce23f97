// The one place that validates data against the bundled description; as `./contract` it also gives the bundles
// (bundles.ts), the walk of a description (operations.ts) and the generated versions. The spec's own tests, the
// server's tests and the contract tests all go through here, so nobody validates against a hand-copied schema.
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule, { type FormatsPlugin } from 'ajv-formats';
import { type DocumentName, type JsonObject, loadBundle, type OpenApiDocument } from './bundles.ts';
import { deref, escapePointer, httpMethods, locate } from './operations.ts';

// ajv-formats is CommonJS; under Node's ESM loader its plugin arrives as the `default` of the default export.
const addFormats: FormatsPlugin =
  (addFormatsModule as unknown as { default?: FormatsPlugin }).default ?? (addFormatsModule as unknown as FormatsPlugin);

export type { CurrentVersion, DocumentName, Version } from '@aggregation/openapi/versions';
// The versions are generated from the bundles (scripts/versions.ts); here under the names the contract helpers export.
export { CURRENT_VERSION as currentVersion, DOCUMENT_NAMES as documentNames, VERSIONS as versions } from '@aggregation/openapi/versions';
export { distDir, type JsonObject, loadBundle, type OpenApiDocument } from './bundles.ts';
export {
  deref,
  escapePointer,
  type HttpMethod,
  httpMethods,
  type Located,
  locate,
  type MediaType,
  type Operation,
  type OperationParameter,
  type OperationResponse,
  operationsOf,
  type Parameter,
  type RequestBody,
  type WebhookEvent,
  webhooksOf,
} from './operations.ts';

export type ValidationProblem = { where: string; message: string };

/** How long the sandbox waits for a webhook receiver's answer to one delivery, as the sandbox document states it. */
export function webhookDeliveryTimeoutMs(): number {
  const seconds = loadBundle('sandbox')['x-webhook-delivery-timeout-seconds'];
  if (typeof seconds !== 'number' || !(seconds > 0)) throw new Error('the sandbox document states no x-webhook-delivery-timeout-seconds');
  return seconds * 1000;
}

function describeErrors(where: string, errors: ErrorObject[] | null | undefined): ValidationProblem[] {
  return (errors ?? []).map((error) => ({
    where,
    message: `${error.instancePath || '(root)'} ${error.message ?? 'is invalid'}${
      error.params && Object.keys(error.params).length ? ` ${JSON.stringify(error.params)}` : ''
    }`,
  }));
}

const sharedValidators = new Map<DocumentName, ContractValidator>();

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
    // validateSchema is off because the document, added as one schema, has none of JSON Schema's keywords at its
    // top (its schemas sit under `components`, `paths` and `webhooks`), so checking it against the meta-schema checks
    // nothing, and adding a document cost 30 to 70 ms of CPU more with the check (the first in a process the most),
    // about 130 ms for the server's three. The description's schemas are checked when it is linted.
    this.ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: true, logger: false, validateSchema: false });
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

  /**
   * The process's one validator of a bundled document. Compiling a document's schemas costs a few hundred
   * milliseconds of CPU, and a validator keeps nothing of what it checked: every user in the process (each app of a
   * server, each suite of a test file) can share the schemas compiled so far.
   */
  static shared(name: DocumentName): ContractValidator {
    let validator = sharedValidators.get(name);
    if (!validator) {
      validator = ContractValidator.forDocument(name);
      sharedValidators.set(name, validator);
    }
    return validator;
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
    const pointerBase = `#/paths/${escapePointer(matched.path)}/${input.method.toLowerCase()}/responses`;
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
        const schemaPointer = locate(this.doc, rawHeader, `${pointerBase}/${statusKey}/headers/${escapePointer(name)}`).pointer;
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
    const responsePointer = locate(this.doc, responses[statusKey], `${pointerBase}/${statusKey}`).pointer;
    const schemaPointer = `${responsePointer}/content/${escapePointer(mediaKey)}/schema`;
    problems.push(...this.validateAt(schemaPointer, input.body).map((p) => ({ ...p, where })));
    return problems;
  }
}

/** Header values arrive as text; integers are compared as numbers. */
function coerceHeader(schema: JsonObject, value: string): unknown {
  const type = schema.type;
  if ((type === 'integer' || type === 'number') && /^-?\d+(\.\d+)?$/.test(value)) return Number(value);
  return value;
}
