// The tools, generated from the bundled description of one API version: one per operation, named by its operationId
// in snake_case, from the one walk of @aggregation/openapi (operationsOf). Nothing here names an operation: what a
// tool takes, answers and promises follows from the operation's parameters, body, answers and HTTP method.
import type { DEFAULT_PAGE_SIZE, IDEMPOTENCY_KEY_HEADER } from '@aggregation/client';
import type { JsonObject, OpenApiDocument } from '@aggregation/openapi/bundles';
import { type Operation, operationsOf } from '@aggregation/openapi/operations';
import { inlineSchema } from './schemas.ts';

/** Sent by the server from `--version` on every call, so it is no argument of any tool. */
export const VERSION_HEADER = 'Service-Version';

/** The key under which an array answer is wrapped: MCP wants an object at the top of `structuredContent`. */
export const LIST_KEY = 'data';
/** Beside a page's `data`: the `from_id` that asks for the next page, or null after the last one. */
export const NEXT_PAGE_KEY = 'next_from_id';
// The client's names and page size, written here so that listing the tools does not load the client; tsc checks that
// they are the client's own.
const IDEMPOTENCY_HEADER = 'Idempotency-Key' satisfies typeof IDEMPOTENCY_KEY_HEADER;
/** How many items a page has when the call does not say (the client's page size): an agent's context is no place for a whole history. */
export const DEFAULT_TOOL_PAGE = 100 satisfies typeof DEFAULT_PAGE_SIZE;
/** The paging parameters of an operation that pages (`count` and `from_id`, as `GET .../transactions` has them). */
const COUNT = 'count';
const FROM_ID = 'from_id';

export type ToolAnnotations = { title: string; readOnlyHint: boolean; destructiveHint: boolean; idempotentHint: boolean };

/** Where an argument goes in the HTTP request. */
export type ArgumentTarget = { argument: string; in: 'path' | 'query' | 'header' | 'body'; name: string };

/** How the answer becomes `structuredContent`: as it is (an object), wrapped (an array), a page, or nothing (204). */
export type AnswerShape = 'object' | 'list' | 'page' | 'none';

export type ToolDefinition = {
  name: string;
  title: string;
  description: string;
  inputSchema: JsonObject;
  outputSchema: JsonObject | undefined;
  annotations: ToolAnnotations;
  /** Listed without `--allow-writes`: the operation only reads (GET, HEAD, OPTIONS). */
  reads: boolean;
  operation: Operation;
  arguments: ArgumentTarget[];
  /** The request body is made of these arguments (the body's own fields). */
  bodyFields: string[];
  answer: AnswerShape;
  /** The success statuses the description documents for the operation. */
  successes: Set<number>;
  /** For a page: the most `count` may ask for, from the description (`maximum`), if it sets one. */
  maxCount: number | undefined;
};

/** `listAccounts` → `list_accounts`; `getAccountDetails` → `get_account_details`. */
export const snakeCase = (name: string): string =>
  name
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/[-\s]+/g, '_')
    .toLowerCase();

const readMethods = new Set(['get', 'head', 'options']);

/**
 * The hints of a tool from its HTTP method: reads change nothing; DELETE removes (destructive) and is idempotent; PUT
 * replaces; a POST adds, and is idempotent when it takes an `Idempotency-Key` (the tool then requires one).
 */
export function annotationsOf(operation: Operation, takesKey: boolean): ToolAnnotations {
  const title = operation.summary;
  if (readMethods.has(operation.method)) return { title, readOnlyHint: true, destructiveHint: false, idempotentHint: true };
  switch (operation.method) {
    case 'delete':
    case 'put':
      return { title, readOnlyHint: false, destructiveHint: true, idempotentHint: true };
    case 'post':
      return { title, readOnlyHint: false, destructiveHint: false, idempotentHint: takesKey };
    default:
      return { title, readOnlyHint: false, destructiveHint: true, idempotentHint: false };
  }
}

const isObject = (value: unknown): value is JsonObject => typeof value === 'object' && value !== null && !Array.isArray(value);
const typeIs = (schema: JsonObject, type: string) => schema.type === type || (Array.isArray(schema.type) && schema.type.includes(type));
const jsonMedia = (content: Operation['responses'][number]['content']) => content.find((media) => media.mediaType === 'application/json');

/** The tools of one version's description, in the description's order. */
export function toolsOf(document: OpenApiDocument): ToolDefinition[] {
  const tools = operationsOf(document).map((operation) => toolOf(document, operation));
  const names = new Set<string>();
  for (const tool of tools) {
    if (names.has(tool.name)) throw new Error(`two operations make the tool ${tool.name}`);
    names.add(tool.name);
  }
  return tools;
}

function toolOf(document: OpenApiDocument, operation: Operation): ToolDefinition {
  const name = snakeCase(operation.operationId);
  const properties: JsonObject = {};
  const required: string[] = [];
  const targets: ArgumentTarget[] = [];
  const add = (argument: string, schema: JsonObject, isRequired: boolean, target: ArgumentTarget) => {
    if (argument in properties) throw new Error(`${name}: two inputs are called ${argument}`);
    properties[argument] = schema;
    if (isRequired) required.push(argument);
    targets.push(target);
  };

  let takesKey = false;
  for (const parameter of operation.parameters) {
    if (parameter.in === 'cookie') throw new Error(`${name}: cookie parameters have no place in a tool`);
    if (parameter.in === 'header' && parameter.name.toLowerCase() === VERSION_HEADER.toLowerCase()) continue;
    const argument = parameter.in === 'header' ? snakeCase(parameter.name) : parameter.name;
    const schema = inlineSchema(document, parameter.schema ?? {}, parameter.schemaPointer);
    const description = (parameter as { description?: unknown }).description;
    if (typeof description === 'string') schema.description = description.trim();
    // A retried call must not pay twice: a tool that creates something takes the key from its caller, always.
    const keyed = parameter.in === 'header' && parameter.name.toLowerCase() === IDEMPOTENCY_HEADER.toLowerCase();
    takesKey ||= keyed;
    add(argument, schema, parameter.required || keyed, { argument, in: parameter.in, name: parameter.name });
  }

  const bodyFields: string[] = [];
  const body = operation.requestBody && jsonMedia(operation.requestBody.content);
  if (operation.requestBody && !body) throw new Error(`${name}: the request body has no application/json form`);
  if (body) {
    const schema = inlineSchema(document, body.schema ?? {}, body.schemaPointer);
    if (!typeIs(schema, 'object') || !isObject(schema.properties)) throw new Error(`${name}: the request body is not an object with properties`);
    const bodyRequired = new Set(Array.isArray(schema.required) ? schema.required.map(String) : []);
    for (const [field, fieldSchema] of Object.entries(schema.properties)) {
      add(field, fieldSchema as JsonObject, operation.requestBody!.required && bodyRequired.has(field), { argument: field, in: 'body', name: field });
      bodyFields.push(field);
    }
  }

  const inputSchema: JsonObject = { type: 'object', properties, additionalProperties: false };
  if (required.length > 0) inputSchema.required = required;

  const { outputSchema, answer, successes } = outputOf(document, operation, name);
  const pages = answer === 'page';
  const countSchema = pages ? (properties[COUNT] as JsonObject) : undefined;
  return {
    name,
    title: operation.summary,
    description: describe(operation, { takesKey, answer }),
    inputSchema,
    outputSchema,
    annotations: annotationsOf(operation, takesKey),
    reads: readMethods.has(operation.method),
    operation,
    arguments: targets,
    bodyFields,
    answer,
    successes,
    maxCount: typeof countSchema?.maximum === 'number' ? countSchema.maximum : undefined,
  };
}

/**
 * The success answers' schema as the tool's `outputSchema`. An object stays as it is (a `oneOf` of objects gets
 * `type: object` beside it); an array is wrapped as `{ data: [...] }`, and a page of a paged list as
 * `{ data: [...], next_from_id }`. An answer without a body (204) has no output schema.
 */
function outputOf(
  document: OpenApiDocument,
  operation: Operation,
  name: string,
): { outputSchema: JsonObject | undefined; answer: AnswerShape; successes: Set<number> } {
  const answers = operation.responses.filter((response) => /^2\d\d$/.test(response.status));
  const successes = new Set(answers.map((response) => Number(response.status)));
  const schemas: JsonObject[] = [];
  const seen = new Set<string>();
  for (const response of answers) {
    const media = jsonMedia(response.content);
    if (!media) continue;
    if (seen.has(media.schemaPointer)) continue;
    seen.add(media.schemaPointer);
    schemas.push(inlineSchema(document, media.schema ?? {}, media.schemaPointer));
  }
  if (schemas.length === 0) return { outputSchema: undefined, answer: 'none', successes };
  if (schemas.length > 1) throw new Error(`${name}: its success answers differ in schema; one output schema cannot say which`);
  const schema = schemas[0]!;
  if (typeIs(schema, 'array')) {
    const paged = [COUNT, FROM_ID].every((parameter) => operation.parameters.some((p) => p.in === 'query' && p.name === parameter));
    const properties: JsonObject = { [LIST_KEY]: schema };
    if (paged) {
      properties[NEXT_PAGE_KEY] = {
        type: ['string', 'null'],
        description: `Pass as \`${FROM_ID}\` (with the same other arguments) to get the next page; null when this page is the last.`,
      };
    }
    return {
      outputSchema: { type: 'object', properties, required: Object.keys(properties), additionalProperties: false },
      answer: paged ? 'page' : 'list',
      successes,
    };
  }
  if (typeIs(schema, 'object')) return { outputSchema: schema, answer: 'object', successes };
  if (schema.type === undefined && Array.isArray(schema.oneOf ?? schema.anyOf)) {
    return { outputSchema: { type: 'object', ...schema }, answer: 'object', successes };
  }
  throw new Error(`${name}: its answer is neither an object nor an array`);
}

/** The tool's description: the operation's summary and description, then what the tool adds to the HTTP call. */
function describe(operation: Operation, tool: { takesKey: boolean; answer: AnswerShape }): string {
  const parts = [`${operation.summary}.`];
  const text = operation.operation.description;
  if (typeof text === 'string' && text.trim()) parts.push(text.trim());
  if (tool.answer === 'list') parts.push(`The answer's array is under \`${LIST_KEY}\`.`);
  if (tool.answer === 'page') {
    parts.push(
      `This tool returns one page: \`${LIST_KEY}\` holds at most \`${COUNT}\` items (${DEFAULT_TOOL_PAGE} when \`${COUNT}\` is not given), and \`${NEXT_PAGE_KEY}\` is the \`${FROM_ID}\` of the next page (null after the last); call again with it and the same other arguments to read on.`,
    );
  }
  if (tool.takesKey) {
    parts.push(
      'Requires `idempotency_key`: a new value (a UUID) for each new intention; repeat a call with the same key and arguments to retry it safely, and to complete it after multi-factor authentication (an answer with `connect_token`): it is carried out at most once.',
    );
  }
  return parts.join('\n\n');
}
