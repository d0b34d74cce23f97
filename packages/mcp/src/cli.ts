// The `aggregation-mcp` command: its options (each also read from the environment where the project names one), and
// the server over stdio (what an MCP host starts) or Streamable HTTP (`--http`).
import { readFileSync } from 'node:fs';
import { CURRENT_VERSION, VERSIONS, type Version } from '@aggregation/openapi/versions';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { Command, InvalidArgumentError, Option } from 'commander';
import { AggregationMcp, DEFAULT_BASE_URL, SERVER_NAME } from './server.ts';

/** The HTTP defaults, here so that stdio does not load the HTTP transport (http.ts checks they are its own). */
export const DEFAULT_HTTP_HOST = '127.0.0.1';
export const DEFAULT_HTTP_PORT = 3001;

export type CliOptions = {
  baseUrl: string;
  token?: string;
  version: Version;
  allowWrites: boolean;
  http: boolean;
  port: number;
  host: string;
  maxRetries?: number;
  cert?: string;
  key?: string;
};

function integer(name: string, min: number, max: number) {
  return (value: string): number => {
    const number = Number(value);
    if (!/^\d+$/.test(value) || number < min || number > max) throw new InvalidArgumentError(`${name} must be a whole number from ${min} to ${max}`);
    return number;
  };
}

export function buildProgram(): Command {
  return new Command(SERVER_NAME)
    .description(
      'MCP server of the account-aggregation and payments API: one tool per operation of the description, the guides and references as resources, and the prompt summarize_spending. Read-only unless --allow-writes.',
    )
    .addOption(new Option('--base-url <url>', 'where the API answers').env('AGGREGATION_BASE_URL').default(DEFAULT_BASE_URL))
    .addOption(
      new Option('--token <token>', 'the access token (prefer the variable: a command line is visible to other users)').env('AGGREGATION_TOKEN'),
    )
    .addOption(new Option('--version <date>', 'the API version whose description makes the tools').choices(VERSIONS).default(CURRENT_VERSION))
    .option('--allow-writes', 'also offer the tools that remove access, create payees and make payments', false)
    .option('--http', 'serve Streamable HTTP at /mcp instead of stdio', false)
    .addOption(new Option('--port <port>', 'the HTTP port (0: any free one)').argParser(integer('--port', 0, 65535)).default(DEFAULT_HTTP_PORT))
    .addOption(new Option('--host <host>', 'the HTTP address to listen on').default(DEFAULT_HTTP_HOST))
    .addOption(
      new Option('--max-retries <count>', "retries of a failed read, or of a write with its idempotency key (default: the client's, 2)").argParser(
        integer('--max-retries', 0, 10),
      ),
    )
    .option('--cert <file>', 'the TLS client certificate (PEM) that live tokens need')
    .option('--key <file>', "the certificate's private key (PEM)")
    .helpOption('-h, --help', 'show this help')
    .addHelpText(
      'after',
      `
Examples:
  $ AGGREGATION_TOKEN=test_token_... aggregation-mcp                  # stdio, read-only, against http://localhost:3000
  $ aggregation-mcp --allow-writes                                    # also payees, payments and removals
  $ aggregation-mcp --http --port 3001                                # Streamable HTTP on http://127.0.0.1:3001/mcp
  $ npx @modelcontextprotocol/inspector --cli aggregation-mcp --method tools/list`,
    );
}

/** Runs the command; resolves once the server listens (HTTP) or is connected (stdio). */
export async function main(argv: string[]): Promise<void> {
  const program = buildProgram().parse(argv);
  const options = program.opts<CliOptions>();
  const mcp = new AggregationMcp({
    baseUrl: options.baseUrl,
    token: options.token,
    version: options.version,
    allowWrites: options.allowWrites,
    maxRetries: options.maxRetries,
    cert: options.cert === undefined ? undefined : readFileSync(options.cert, 'utf8'),
    key: options.key === undefined ? undefined : readFileSync(options.key, 'utf8'),
  });
  if (options.http) {
    const { listenHttp } = await import('./http.ts');
    const listener = await listenHttp(mcp, { host: options.host, port: options.port });
    mcp.log(`${mcp.describe()}; Streamable HTTP on ${listener.url}`);
    const stop = () => void listener.close().then(() => process.exit(0));
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
    return;
  }
  const server = mcp.createServer();
  server.onerror = (error) => mcp.log(`stdio: ${error.message}`);
  const transport = new StdioServerTransport();
  // The host ends the server by closing its stdin.
  process.stdin.once('end', () => void server.close().then(() => process.exit(0)));
  await server.connect(transport);
  mcp.log(`${mcp.describe()}; stdio`);
}
