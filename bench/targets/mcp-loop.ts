// A tool call of `aggregation-mcp` against the same call through @aggregation/client, from one process: the official
// MCP SDK's client talks to the server over stdio (the server a process of its own, as a host runs it), the typed
// client to the sandbox server directly. Both reach the same sandbox server, a process of its own too; only the MCP
// leg differs: JSON-RPC over a pipe, the SDK's checks on both sides, the server's argument and answer checks and its
// text rendering.
import { fileURLToPath } from 'node:url';
import { createClient } from '@aggregation/client';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { median } from '../lib/stats.ts';
import { childArgs, serveParent } from '../lib/worker-side.ts';

export interface McpLoopArgs {
  baseUrl: string;
  token: string;
  accountId: string;
}

export type McpCaller = 'client' | 'mcp';
export type McpOperation = 'accounts' | 'transactions';

export interface McpRound {
  calls: number;
  /** Median wall-clock time of one call, in microseconds. */
  medianMicros: number;
}

const bin = fileURLToPath(new URL('../../packages/mcp/bin/aggregation-mcp.js', import.meta.url));
const args = childArgs<McpLoopArgs>();
const client = createClient({ token: args.token, baseUrl: args.baseUrl, version: '2020-10-12' });
const transport = new StdioClientTransport({
  command: process.execPath,
  args: [bin],
  env: { AGGREGATION_TOKEN: args.token, AGGREGATION_BASE_URL: args.baseUrl, PATH: process.env.PATH ?? '' },
  stderr: 'ignore',
});
const mcp = new Client({ name: 'bench', version: '1.0.0' });
await mcp.connect(transport);
// As a host does before its first call: the client keeps each tool's output schema, to check the results.
await mcp.listTools();

const calls: Record<McpCaller, Record<McpOperation, () => Promise<unknown>>> = {
  client: {
    accounts: () => client.accounts.list(),
    transactions: () => client.transactions.list(args.accountId, { count: 100 }),
  },
  mcp: {
    accounts: () => mcp.callTool({ name: 'list_accounts', arguments: {} }),
    transactions: () => mcp.callTool({ name: 'list_transactions', arguments: { account_id: args.accountId, count: 100 } }),
  },
};

serveParent(
  { pid: process.pid, serverPid: transport.pid },
  {
    run: async (payload): Promise<McpRound> => {
      const { caller, operation, count } = payload as { caller: McpCaller; operation: McpOperation; count: number };
      const call = calls[caller][operation];
      const times: number[] = [];
      for (let i = 0; i < count; i++) {
        const started = performance.now();
        const result = (await call()) as { isError?: boolean };
        times.push(performance.now() - started);
        if (result && typeof result === 'object' && result.isError) throw new Error(`${operation} through MCP failed: ${JSON.stringify(result)}`);
      }
      return { calls: count, medianMicros: median(times) * 1000 };
    },
  },
  () => mcp.close(),
);
