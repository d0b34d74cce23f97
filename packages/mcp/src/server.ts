// The MCP server: the tools of one API version (read-only unless writes are allowed), the docs as resources and the
// prompt, on the official SDK's low-level Server (the tools' schemas come from the description as JSON Schema, which
// the SDK's high-level McpServer would want as zod). One AggregationMcp holds what every connection shares (the
// tools, the client); each connection, or each request over stateless HTTP, gets a Server of its own from it.
// Listing needs only the description: the client and the validators are loaded on the first call (api.ts).
import { readFileSync } from 'node:fs';
import type { DEFAULT_BASE_URL as CLIENT_DEFAULT_BASE_URL } from '@aggregation/client';
import { loadBundle } from '@aggregation/openapi/bundles';
import { CURRENT_VERSION, type Version } from '@aggregation/openapi/versions';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  type CallToolResult,
  GetPromptRequestSchema,
  type GetPromptResult,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListToolsRequestSchema,
  McpError,
  ReadResourceRequestSchema,
  ErrorCode as RpcErrorCode,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import type { Api } from './api.ts';
import { SUMMARIZE_SPENDING, summarizeSpendingPrompt } from './prompts.ts';
import { redactor } from './redact.ts';
import { type DocsResources, docsResources } from './resources.ts';
import { type ToolDefinition, toolsOf } from './tools.ts';

/** The client's default address, written here so that starting does not load the client (tsc checks it is the same). */
export const DEFAULT_BASE_URL = 'http://localhost:3000' satisfies typeof CLIENT_DEFAULT_BASE_URL;

export type AggregationMcpOptions = {
  /** Where the API answers (default: the client's, http://localhost:3000). */
  baseUrl?: string;
  /** The access token; without one, every tool call says how to give it. */
  token?: string | undefined;
  /** The API version whose description makes the tools, sent as `Service-Version` (default: the current one). */
  version?: Version;
  /** Offer the tools that change something (removals, payees, payments). */
  allowWrites?: boolean;
  /** Retries of a call after its first attempt (the client's default when not given). */
  maxRetries?: number | undefined;
  /** The TLS client certificate and key (PEM) that live tokens need. */
  cert?: string | undefined;
  key?: string | undefined;
  /** Where log lines go (never stdout: over stdio that is the protocol). Default: stderr. */
  log?: (line: string) => void;
};

/** The package's version, which the server gives as its own. */
export const packageVersion: string = (JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }).version;

export const SERVER_NAME = 'aggregation-mcp';

/** -32002: the code MCP gives an unknown resource. */
const RESOURCE_NOT_FOUND = -32002;

export class AggregationMcp {
  readonly version: Version;
  readonly baseUrl: string;
  readonly allowWrites: boolean;
  /** The tools offered, in the description's order. */
  readonly tools: ToolDefinition[];
  readonly log: (line: string) => void;
  private readonly offered: Map<string, ToolDefinition>;
  /** Tools of the description that are not offered (they change data and writes are not allowed). */
  private readonly hidden: Set<string>;
  private readonly listed: Tool[];
  private readonly redact: (text: string) => string;
  private readonly options: AggregationMcpOptions;
  private api: Promise<Api> | undefined;
  private resources: DocsResources | undefined;

  constructor(options: AggregationMcpOptions = {}) {
    this.options = options;
    this.version = options.version ?? CURRENT_VERSION;
    this.baseUrl = options.baseUrl ?? DEFAULT_BASE_URL;
    this.allowWrites = options.allowWrites === true;
    this.redact = redactor(options.token);
    const write = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
    this.log = (line) => write(this.redact(line));

    const all = toolsOf(loadBundle(this.version));
    this.tools = all.filter((tool) => tool.reads || this.allowWrites);
    this.offered = new Map(this.tools.map((tool) => [tool.name, tool]));
    this.hidden = new Set(all.filter((tool) => !this.offered.has(tool.name)).map((tool) => tool.name));
    this.listed = this.tools.map((tool) => ({
      name: tool.name,
      title: tool.title,
      description: tool.description,
      inputSchema: tool.inputSchema as Tool['inputSchema'],
      ...(tool.outputSchema ? { outputSchema: tool.outputSchema as Tool['outputSchema'] } : {}),
      annotations: tool.annotations,
    }));
  }

  /** Said once at start: what is served, from where, and whether writes are offered. */
  describe(): string {
    const mode = this.allowWrites ? 'writes allowed' : 'read-only';
    const token = this.options.token?.trim() ? '' : '; no access token (set AGGREGATION_TOKEN)';
    return `${SERVER_NAME} ${packageVersion}: API ${this.version} at ${this.baseUrl}, ${mode}, ${this.tools.length} tools${token}`;
  }

  /** The tools as `tools/list` gives them. */
  listTools(): Tool[] {
    return this.listed;
  }

  private instructions(): string {
    return [
      `Tools of the account-aggregation and payments API (version ${this.version}), one per operation, named after its operationId.`,
      this.allowWrites
        ? 'Tools that change data are offered: removing access (destructive), creating payees and making payments. Payees and payments require an idempotency_key, and may answer with a connect_token that the user must approve in the enrollment widget; then the same call (same key, same arguments) completes them, once.'
        : 'Read-only: the tools that remove access, create payees or make payments are not offered (the server was started without --allow-writes).',
      'Amounts are decimal strings. Array answers come as {"data": [...]}; list_transactions returns one page and next_from_id, to pass as from_id for the next.',
      "Errors come as tool errors with the HTTP status, the error code and what to do. The guides and each operation's reference are resources (aggregation://docs/...).",
    ].join(' ');
  }

  /** A Server for one connection (stdio) or one request (stateless HTTP), answering from what this one holds. */
  createServer(): Server {
    const server = new Server(
      { name: SERVER_NAME, title: 'Account aggregation and payments API', version: packageVersion },
      { capabilities: { tools: {}, resources: {}, prompts: {} }, instructions: this.instructions() },
    );
    server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: this.listed }));
    server.setRequestHandler(CallToolRequestSchema, (request) => this.call(request.params.name, request.params.arguments));
    server.setRequestHandler(ListResourcesRequestSchema, () => ({ resources: this.docs().list }));
    server.setRequestHandler(ReadResourceRequestSchema, (request) => {
      const read = this.docs().read(request.params.uri);
      if (!read) throw new McpError(RESOURCE_NOT_FOUND, this.redact(`Resource not found: ${request.params.uri}; resources/list lists them`));
      return read;
    });
    server.setRequestHandler(ListPromptsRequestSchema, () => ({ prompts: [summarizeSpendingPrompt] }));
    server.setRequestHandler(GetPromptRequestSchema, (request) => this.prompt(request.params.name, request.params.arguments));
    return server;
  }

  private docs(): DocsResources {
    this.resources ??= docsResources();
    return this.resources;
  }

  /** The API side, made on the first call that needs it. */
  private connect(): Promise<Api> {
    this.api ??= import('./api.ts').then(
      ({ Api }) =>
        new Api({
          baseUrl: this.baseUrl,
          token: this.options.token,
          version: this.version,
          maxRetries: this.options.maxRetries,
          cert: this.options.cert,
          key: this.options.key,
          log: this.log,
        }),
    );
    return this.api;
  }

  /** One tool call. A known tool's failure is a result with `isError`; an unknown tool is a protocol error, as MCP says. */
  async call(name: string, args: Record<string, unknown> | undefined): Promise<CallToolResult> {
    const tool = this.offered.get(name);
    if (!tool) {
      const why = this.hidden.has(name)
        ? `: ${name} changes data, and the server offers such tools only when started with --allow-writes`
        : '; tools/list lists the tools this server offers';
      throw new McpError(RpcErrorCode.InvalidParams, this.redact(`Unknown tool: ${name}${why}`));
    }
    let result: CallToolResult;
    try {
      const outcome = await (await this.connect()).call(tool, args);
      if (outcome.result.isError) this.log(`${tool.name}: ${outcome.summary}`);
      result = outcome.result;
    } catch (error) {
      // A defect of this server, not of the call: said as a tool error, so that the host and the model see it.
      this.log(`${tool.name}: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
      result = {
        content: [{ type: 'text', text: `The MCP server failed on this call: ${error instanceof Error ? error.message : String(error)}` }],
        isError: true,
      };
    }
    for (const block of result.content) if (block.type === 'text') block.text = this.redact(block.text);
    return result;
  }

  private async prompt(name: string, args: Record<string, string> | undefined): Promise<GetPromptResult> {
    if (name !== SUMMARIZE_SPENDING) throw new McpError(RpcErrorCode.InvalidParams, this.redact(`Unknown prompt: ${name}; prompts/list lists them`));
    const api = await this.connect();
    try {
      return await api.prompt(args ?? {});
    } catch (error) {
      const { PromptFailure } = await import('./api.ts');
      if (error instanceof PromptFailure) {
        this.log(`${SUMMARIZE_SPENDING}: ${error.summary}`);
        throw new McpError(error.kind === 'invalid' ? RpcErrorCode.InvalidParams : RpcErrorCode.InternalError, this.redact(error.message));
      }
      const message = error instanceof Error ? error.message : String(error);
      this.log(`${SUMMARIZE_SPENDING}: ${error instanceof Error ? (error.stack ?? message) : message}`);
      throw new McpError(RpcErrorCode.InternalError, this.redact(`The MCP server failed on this prompt: ${message}`));
    }
  }
}
