// One tool call: the arguments checked against the tool's inputSchema, the HTTP request made of them and sent through
// the client, and the answer turned into a result: structuredContent (checked against the description) and its text,
// or an `isError` result that says what went wrong and what to do.
import { type AggregationClient, ApiError, IDEMPOTENT_REPLAYED_HEADER, isMfaChallenge } from '@aggregation/client';
import type { JsonObject } from '@aggregation/openapi/bundles';
import type { ErrorCode } from '@aggregation/openapi/error-codes';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule, { type FormatsPlugin } from 'ajv-formats';
import { apiFailure, type ToolFailure, thrownFailure } from './errors.ts';
import { inlineValue, isObject, renderList, renderObject } from './render.ts';
import { DEFAULT_TOOL_PAGE, LIST_KEY, NEXT_PAGE_KEY, type ToolDefinition } from './tools.ts';

// ajv-formats is CommonJS; under Node's ESM loader its plugin arrives as the `default` of the default export.
const addFormats: FormatsPlugin =
  (addFormatsModule as unknown as { default?: FormatsPlugin }).default ?? (addFormatsModule as unknown as FormatsPlugin);

/** What every call of one server shares. */
export type CallContext = {
  /** Undefined when no token was given: every call then says how to give one. */
  client: AggregationClient | undefined;
  baseUrl: string;
  codes: readonly ErrorCode[];
  /** The token is a sandbox token (`test_token_...`): an MFA answer says how the sandbox approves it. */
  sandbox: boolean;
  /** What a call answers when there is no client: how to give a token, or why the one given was refused. */
  noClient: string;
};

export type ToolOutcome = { result: CallToolResult /** One line for the log. */; summary: string };

type Sent = { data?: unknown; error?: unknown; response: Response };
type RawClient = { request(method: string, path: string, init: object): Promise<Sent> };

// The validators of the tools' schemas, compiled on a tool's first call; as the contract's, with OpenAPI's keywords
// (examples, x-*) allowed. Arguments are checked for every problem, to name them all; answers, whose schema is larger
// and which are valid but for a defect, stop at the first (three times faster on a page of 100 transactions).
const validators = { input: new WeakMap<ToolDefinition, ValidateFunction>(), output: new WeakMap<ToolDefinition, ValidateFunction>() };
const ajvs = {
  input: new Ajv2020({ strict: false, allErrors: true, validateFormats: true, logger: false, validateSchema: false }),
  output: new Ajv2020({ strict: false, allErrors: false, validateFormats: true, logger: false, validateSchema: false }),
};
addFormats(ajvs.input);
addFormats(ajvs.output);

function validatorOf(kind: 'input' | 'output', tool: ToolDefinition, schema: JsonObject): ValidateFunction {
  let validate = validators[kind].get(tool);
  if (!validate) {
    validate = ajvs[kind].compile(schema);
    validators[kind].set(tool, validate);
  }
  return validate;
}
const inputValidator = (tool: ToolDefinition) => validatorOf('input', tool, tool.inputSchema);
const outputValidator = (tool: ToolDefinition) => validatorOf('output', tool, tool.outputSchema ?? {});

/** `count: must be <= 10000`, `(arguments): must have required property 'account_id'`. */
function describeProblems(errors: ErrorObject[] | null | undefined): string {
  return (errors ?? [])
    .map((error) => {
      const at = error.instancePath ? error.instancePath.slice(1).replaceAll('/', '.') : '(arguments)';
      const extra = error.keyword === 'additionalProperties' ? ` (${String((error.params as { additionalProperty: string }).additionalProperty)})` : '';
      const allowed = error.keyword === 'enum' ? `: ${(error.params as { allowedValues: unknown[] }).allowedValues.join(', ')}` : '';
      return `${at}: ${error.message ?? 'is invalid'}${extra}${allowed}`;
    })
    .join('; ');
}

const failed = (failure: ToolFailure): ToolOutcome => ({
  result: { content: [{ type: 'text', text: failure.text }], isError: true },
  summary: failure.summary,
});

/** Why the arguments cannot be used, naming each problem; undefined when they can. */
function argumentProblem(tool: ToolDefinition, given: Record<string, unknown>): string | undefined {
  // A `__proto__` key of the JSON arguments became the prototype of the object the SDK parsed them into: refused, as
  // every key that is no argument is.
  const prototype = Object.getPrototypeOf(given);
  if (prototype !== Object.prototype && prototype !== null) return '__proto__ is no argument';
  const validate = inputValidator(tool);
  if (!validate(given)) return describeProblems(validate.errors);
  // An empty path parameter would name another operation (`/accounts/` is not `/accounts/{account_id}`).
  const empty = tool.arguments.find((target) => target.in === 'path' && given[target.argument] === '');
  return empty ? `${empty.argument} must not be empty` : undefined;
}

type Request = {
  init: { params: { path: object; query: Record<string, unknown> }; headers: Record<string, string>; body?: JsonObject };
  pageSize: number;
};

/** The HTTP request the arguments make: each in its place (path, query, header, body), and a page's size. */
function requestOf(tool: ToolDefinition, given: Record<string, unknown>): Request {
  const path: Record<string, string> = {};
  const query: Record<string, unknown> = {};
  const headers: Record<string, string> = {};
  const body: JsonObject = {};
  for (const target of tool.arguments) {
    if (!Object.hasOwn(given, target.argument)) continue;
    const value = given[target.argument];
    if (target.in === 'path') path[target.name] = String(value);
    else if (target.in === 'query') query[target.name] = value;
    else if (target.in === 'header') headers[target.name] = String(value);
    else body[target.name] = value;
  }
  // A page asks for one more item than it shows: whether that one came says whether there is a next page.
  const pageSize = typeof query.count === 'number' ? query.count : DEFAULT_TOOL_PAGE;
  if (tool.answer === 'page') query.count = tool.maxCount === undefined || pageSize < tool.maxCount ? pageSize + 1 : pageSize;
  const init: Request['init'] = { params: { path, query }, headers };
  if (tool.bodyFields.length > 0) init.body = body;
  return { init, pageSize };
}

/** The answer's data as the tool gives it: an object as it is, an array under `data`, a page with `next_from_id`. */
function structuredOf(tool: ToolDefinition, data: unknown, request: Request): JsonObject {
  if (tool.answer === 'object') return data as JsonObject;
  const items = Array.isArray(data) ? data : [];
  if (tool.answer !== 'page') return { [LIST_KEY]: items };
  const { pageSize } = request;
  const shown = items.slice(0, pageSize);
  const more = items.length > pageSize || (request.init.params.query.count === pageSize && items.length === pageSize);
  const last = shown.at(-1);
  return { [LIST_KEY]: shown, [NEXT_PAGE_KEY]: more && isObject(last) && typeof last.id === 'string' ? last.id : null };
}

/** Calls one tool with its arguments (as the client sent them, not yet checked). */
export async function callTool(tool: ToolDefinition, args: Record<string, unknown> | undefined, context: CallContext): Promise<ToolOutcome> {
  const given = args ?? {};
  const problem = argumentProblem(tool, given);
  if (problem) return failed({ text: `Invalid arguments for ${tool.name}: ${problem}`, summary: 'invalid arguments' });
  if (!context.client) return failed({ text: context.noClient, summary: 'no client' });

  const request = requestOf(tool, given);
  const method = tool.operation.method.toUpperCase();
  let sent: Sent;
  try {
    sent = await (context.client.raw as unknown as RawClient).request(method, tool.operation.path, request.init);
  } catch (error) {
    return failed(thrownFailure(error, context.baseUrl));
  }
  const { data, error, response } = sent;
  if (!response.ok) return failed(apiFailure(ApiError.fromResponse(response, error, `${method} ${tool.operation.path}`), context.codes));
  const summary = String(response.status);
  if (tool.answer === 'none') return { result: { content: [{ type: 'text', text: `${tool.title}: done (${response.status}).` }] }, summary };
  if (!tool.successes.has(response.status) || data === undefined) {
    return failed(offContract(response.status, `status ${response.status} with ${data === undefined ? 'no body' : 'a body'} is no documented success`));
  }

  const structured = structuredOf(tool, data, request);
  // What goes out is checked against the outputSchema the tool lists, which is the description's: a server that
  // answers off the contract (another API at --base-url) gets a clear error, not content the client would refuse.
  const check = outputValidator(tool);
  if (!check(structured)) return failed(offContract(response.status, describeProblems(check.errors)));
  const result = (text: string): CallToolResult => ({ content: [{ type: 'text', text }], structuredContent: structured });
  if (tool.answer !== 'object') return { result: result(renderList(tool.title, structured)), summary };
  const replayed = response.headers.get(IDEMPOTENT_REPLAYED_HEADER) === 'true';
  if (isMfaChallenge(structured))
    return { result: result(mfaText(tool, given, structured, { replayed, sandbox: context.sandbox })), summary: `${summary} mfa` };
  if (!replayed) return { result: result(renderObject(tool.title, structured)), summary };
  const note = '\nReplayed: the stored answer of an earlier call with this idempotency_key; nothing was made again.';
  return { result: result(renderObject(tool.title, structured) + note), summary: `${summary} replayed` };
}

function offContract(status: number, problems: string): ToolFailure {
  return {
    text: `The API's answer (${status}) does not match the description, so it is not returned: ${problems}. What to do: check that --base-url names this API and --version a version it serves.`,
    summary: `${status} off the contract`,
  };
}

/** What the user must do with a connect token, and how the agent finishes the call afterwards. */
function mfaText(
  tool: ToolDefinition,
  args: Record<string, unknown>,
  challenge: { connect_token: string },
  answer: { replayed: boolean; sandbox: boolean },
): string {
  const key = args.idempotency_key === undefined ? '' : ` (${inlineValue(args.idempotency_key)})`;
  return [
    answer.replayed
      ? 'Still waiting for the user: this request needs their approval (multi-factor authentication), which has not come yet. Nothing was created yet.'
      : 'Multi-factor authentication required: the institution asks the user to approve this request. Nothing was created yet.',
    `connect_token: ${challenge.connect_token}`,
    `What the user must do: approve it in the enrollment widget, opened with this connect_token (the widget's \`connectToken\` option).`,
    `Then call ${tool.name} again with the same idempotency_key${key} and the same arguments: once approved, it is carried out, and only once.`,
    ...(answer.sandbox
      ? [
          `In the sandbox, the developer can approve it as the user would: \`npx aggregation approve ${challenge.connect_token}\`, or POST /sandbox/connect_tokens/${challenge.connect_token}/approve with the sandbox token.`,
        ]
      : []),
  ].join('\n');
}
