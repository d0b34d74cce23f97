// The MCP server as a host runs it: `aggregation-mcp` started over stdio by the official SDK's client, or over
// Streamable HTTP (`--http`) and reached by the SDK's HTTP client; and what the tests check on every answer.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { exitWithParent, printedBy, stopOnExit, stopsWithThisProcess } from '@aggregation/test-support';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { HANG_GUARD_MS } from '../../../../vitest.shared.ts';

export const bin = fileURLToPath(new URL('../../bin/aggregation-mcp.js', import.meta.url));

export type ServerSettings = {
  token?: string | undefined;
  baseUrl: string;
  args?: string[];
  /** The Node.js that runs the server (default: this one). */
  node?: string;
  /** More of the server's environment. */
  env?: Record<string, string>;
};

export type Connected = {
  client: Client;
  /** The tools as tools/list gave them. */
  tools: Map<string, Tool>;
  /** Everything the server wrote to stderr, its log. */
  log(): string;
  /** Calls a tool; the SDK's client checks structuredContent against the tool's outputSchema as it receives it. */
  call(name: string, args?: Record<string, unknown>): Promise<CallToolResult>;
  close(): Promise<void>;
};

/**
 * The official client, with no request timed out short of the tests' own hang guard (the SDK gives each request 60 s):
 * on a loaded machine a call only takes longer.
 */
export function patientClient(name = 'aggregation-mcp-tests'): Client {
  const client = new Client({ name, version: '1.0.0' });
  const request = client.request.bind(client);
  client.request = ((message, schema, options) => request(message, schema, { timeout: HANG_GUARD_MS, ...options })) as Client['request'];
  return client;
}

function environment(settings: ServerSettings): Record<string, string> {
  // PATH only from this process: the server must work from its own options and these two variables.
  const env: Record<string, string> = { PATH: process.env.PATH ?? '', AGGREGATION_BASE_URL: settings.baseUrl };
  if (settings.token !== undefined) env.AGGREGATION_TOKEN = settings.token;
  return { ...env, ...settings.env };
}

async function connected(client: Client, log: () => string, close: () => Promise<void>): Promise<Connected> {
  const { tools } = await client.listTools();
  return {
    client,
    tools: new Map(tools.map((tool) => [tool.name, tool])),
    log,
    call: (name, args = {}) => client.callTool({ name, arguments: args }) as Promise<CallToolResult>,
    close,
  };
}

/** `aggregation-mcp` over stdio, as an MCP host starts it. */
export async function connectStdio(settings: ServerSettings): Promise<Connected> {
  const transport = new StdioClientTransport({
    command: settings.node ?? process.execPath,
    args: [...exitWithParent, bin, ...(settings.args ?? [])],
    env: environment(settings),
    stderr: 'pipe',
  });
  let log = '';
  transport.stderr?.on('data', (chunk: Buffer) => (log += chunk.toString()));
  const client = patientClient();
  await client.connect(transport);
  const forget = stopOnExit(() => transport.pid && process.kill(transport.pid, 'SIGKILL'));
  return connected(
    client,
    () => log,
    async () => {
      await client.close();
      forget();
    },
  );
}

export type HttpServer = { url: string; log(): string; stop(): Promise<void> };

/** `aggregation-mcp --http --port 0`, once it says where it listens. */
export async function startHttp(settings: ServerSettings): Promise<HttpServer> {
  const child = stopsWithThisProcess(
    spawn(settings.node ?? process.execPath, [...exitWithParent, bin, '--http', '--port', '0', ...(settings.args ?? [])], {
      env: environment(settings),
      stdio: ['ignore', 'pipe', 'pipe'],
    }),
  );
  const printed = printedBy(child, 'aggregation-mcp --http');
  const [, url] = await printed.waitFor(/Streamable HTTP on (http:\/\/\S+)/);
  return {
    url: url!,
    log: printed.output,
    stop: async () => {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/** The official client over Streamable HTTP. */
export async function connectHttp(server: HttpServer): Promise<Connected> {
  const client = patientClient();
  await client.connect(new StreamableHTTPClientTransport(new URL(server.url)));
  return connected(client, server.log, () => client.close());
}

/** A tool's required arguments, each from `ids` (`account_id`, `transaction_id`, `payment_id`). */
export function requiredArguments(tool: { inputSchema: { required?: unknown } }, ids: Record<string, string>): Record<string, string> {
  return Object.fromEntries(((tool.inputSchema.required as string[] | undefined) ?? []).map((argument) => [argument, ids[argument]!]));
}

const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: true, logger: false });
(addFormats as unknown as (ajv: Ajv2020) => void)(ajv);

/** A successful result: structuredContent valid against the tool's outputSchema (JSON Schema 2020-12), and a text. */
export function assertStructured(tool: Tool, result: CallToolResult): Record<string, any> {
  assert.notEqual(result.isError, true, `${tool.name} failed: ${textOf(result)}`);
  assert.ok(tool.outputSchema, `${tool.name} has no outputSchema`);
  const validate = ajv.compile(tool.outputSchema);
  assert.ok(validate(result.structuredContent), `${tool.name}: structuredContent breaks its outputSchema: ${ajv.errorsText(validate.errors)}`);
  assert.ok(textOf(result).length > 0, `${tool.name}: no text beside structuredContent`);
  return result.structuredContent as Record<string, any>;
}

export function textOf(result: CallToolResult): string {
  return result.content
    .filter((block) => block.type === 'text')
    .map((block) => block.text)
    .join('\n');
}

/** A tool error: isError, no structuredContent, and a text with what the test looks for. */
export function assertToolError(result: CallToolResult, ...patterns: (RegExp | string)[]): string {
  assert.equal(result.isError, true, `expected a tool error, got: ${JSON.stringify(result).slice(0, 500)}`);
  assert.equal(result.structuredContent, undefined);
  const text = textOf(result);
  for (const pattern of patterns) {
    if (typeof pattern === 'string') assert.ok(text.includes(pattern), `the error does not say "${pattern}":\n${text}`);
    else assert.match(text, pattern);
  }
  return text;
}
