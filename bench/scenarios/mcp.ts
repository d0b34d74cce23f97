// 11. MCP: `aggregation-mcp`, the MCP server, measured as a host meets it. Its start: from spawning the process to the
// answer of `tools/list` over stdio, against a bare Node.js process answering one line over the same pipes, the first
// start with an empty compile cache and then warm ones. A tool call's overhead: the median time of `list_accounts`
// through the MCP server against the same call through @aggregation/client (`client.accounts.list()`), and the same for
// a page of 100 transactions, in interleaved rounds of many calls.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readCpuSeconds } from '@aggregation/test-support';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { spawnChild } from '../lib/child.ts';
import type { Context } from '../lib/context.ts';
import { checkingAccount } from '../lib/enroll.ts';
import type { Section, Target } from '../lib/report.ts';
import { spawnServer } from '../lib/server-target.ts';
import { fmtMs, median } from '../lib/stats.ts';
import type { McpCaller, McpLoopArgs, McpOperation, McpRound } from '../targets/mcp-loop.ts';

/** The goals: tools/list within 1 s of starting; a tool call at most 2 ms slower than the client's call. */
const MAX_START_MS = 1000;
const MAX_OVERHEAD_MS = 2;

const bin = fileURLToPath(new URL('../../packages/mcp/bin/aggregation-mcp.js', import.meta.url));
const operations: Record<McpOperation, { tool: string; client: string }> = {
  accounts: { tool: 'list_accounts', client: 'client.accounts.list()' },
  transactions: { tool: 'list_transactions (count 100)', client: 'client.transactions.list(id, { count: 100 })' },
};

/**
 * Milliseconds from spawning `aggregation-mcp` to the answer of tools/list, through the official client, and the CPU
 * time the server had spent by then (what other work on the machine does not inflate).
 */
async function startToToolsList(cacheDir: string): Promise<{ wall: number; cpu: number }> {
  const started = performance.now();
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [bin],
    env: { AGGREGATION_TOKEN: 'test_token_bench', PATH: process.env.PATH ?? '', NODE_COMPILE_CACHE: cacheDir },
    stderr: 'ignore',
  });
  const client = new Client({ name: 'bench', version: '1.0.0' });
  await client.connect(transport);
  const { tools } = await client.listTools();
  const wall = performance.now() - started;
  const cpu = readCpuSeconds(transport.pid!) * 1000;
  await client.close();
  if (tools.length === 0) throw new Error('aggregation-mcp listed no tools');
  return { wall, cpu };
}

/** The same for a bare Node.js process that answers one line: the floor of any server started this way. */
async function bareNodeEcho(): Promise<{ wall: number; cpu: number }> {
  const started = performance.now();
  const child = spawn(process.execPath, ['-e', "process.stdin.once('data', (line) => { process.stdout.write(line); process.exit(0); })"], {
    stdio: ['pipe', 'pipe', 'ignore'],
  });
  child.stdin.write('{"jsonrpc":"2.0","id":1,"method":"ping"}\n');
  await new Promise<void>((resolve) => child.stdout.once('data', () => resolve()));
  const wall = performance.now() - started;
  const cpu = readCpuSeconds(child.pid!) * 1000;
  await new Promise((resolve) => child.once('exit', resolve));
  return { wall, cpu };
}

export async function mcp(ctx: Context): Promise<Section> {
  const { options } = ctx;
  const starts = options.quick ? 3 : 10;
  const rounds = options.quick ? 2 : 7;
  const callsPerRound = options.quick ? 50 : 300;

  // Starts, each in a fresh process; the compile cache of this run's own, empty for the first.
  const cacheDir = mkdtempSync(join(ctx.workdir, 'mcp-compile-cache-'));
  const startTimes: { wall: number; cpu: number }[] = [];
  const bareTimes: { wall: number; cpu: number }[] = [];
  try {
    for (let index = 0; index < starts; index++) {
      ctx.log(`mcp: start ${index + 1} of ${starts}`);
      startTimes.push(await startToToolsList(cacheDir));
      bareTimes.push(await bareNodeEcho());
    }
  } finally {
    rmSync(cacheDir, { recursive: true, force: true });
  }
  const cold = startTimes[0]!;
  const warm = { wall: median(startTimes.slice(1).map((t) => t.wall)), cpu: median(startTimes.slice(1).map((t) => t.cpu)) };
  const bare = { wall: median(bareTimes.map((t) => t.wall)), cpu: median(bareTimes.map((t) => t.cpu)) };

  // Tool calls: the sandbox server in a process of its own, the loop (with the MCP server it starts) in another.
  const server = await spawnServer(ctx, 'mcp-server', { databasePath: join(ctx.workdir, 'mcp.sqlite'), enroll: ['username'], webhooks: false });
  const [enrolled] = server.info.enrolled;
  const loop = await spawnChild<{ pid: number }>(
    new URL('../targets/mcp-loop.ts', import.meta.url),
    { baseUrl: server.info.url, token: enrolled!.token, accountId: checkingAccount(enrolled!.accounts).id } satisfies McpLoopArgs,
    { execArgv: ctx.execArgv('mcp-loop') },
  );
  const measured = new Map<string, number[]>();
  try {
    const run = (caller: McpCaller, operation: McpOperation, count: number) => loop.call<McpRound>('run', { caller, operation, count });
    for (const operation of Object.keys(operations) as McpOperation[]) {
      for (const caller of ['client', 'mcp'] as const) await run(caller, operation, Math.max(20, callsPerRound / 5));
    }
    for (let round = 0; round < rounds; round++) {
      ctx.log(`mcp: round ${round + 1} of ${rounds}, ${callsPerRound} calls per variant`);
      for (const operation of Object.keys(operations) as McpOperation[]) {
        for (const caller of ['client', 'mcp'] as const) {
          const result = await run(caller, operation, callsPerRound);
          const key = `${caller} ${operation}`;
          measured.set(key, [...(measured.get(key) ?? []), result.medianMicros]);
        }
      }
    }
  } finally {
    await loop.stop();
    await server.stop();
  }

  const perCall = (caller: McpCaller, operation: McpOperation) => median(measured.get(`${caller} ${operation}`)!) / 1000;
  const rows: string[][] = [];
  const targets: Target[] = [
    {
      name: 'MCP server start to tools/list over stdio (warm compile cache, median)',
      value: `${fmtMs(warm.wall)} ms, ${fmtMs(warm.cpu)} ms of CPU (bare node ${fmtMs(bare.wall)} ms)`,
      goal: `≤ ${MAX_START_MS} ms`,
      met: warm.wall <= MAX_START_MS,
    },
    {
      name: 'MCP server start to tools/list over stdio, first start (empty compile cache)',
      value: `${fmtMs(cold.wall)} ms, ${fmtMs(cold.cpu)} ms of CPU`,
      goal: `≤ ${MAX_START_MS} ms`,
      met: cold.wall <= MAX_START_MS,
    },
  ];
  for (const operation of Object.keys(operations) as McpOperation[]) {
    const direct = perCall('client', operation);
    const viaMcp = perCall('mcp', operation);
    const overhead = viaMcp - direct;
    rows.push([operations[operation].tool, operations[operation].client, fmtMs(direct), fmtMs(viaMcp), fmtMs(overhead)]);
    targets.push({
      name: operation === 'accounts' ? 'MCP tool call overhead' : 'MCP tool call overhead, a page of 100 transactions',
      value: `${fmtMs(overhead)} ms (${fmtMs(viaMcp)} ms vs ${fmtMs(direct)} ms)`,
      goal: operation === 'accounts' ? `≤ ${MAX_OVERHEAD_MS} ms` : 'report',
      met: operation === 'accounts' ? overhead <= MAX_OVERHEAD_MS : null,
    });
  }
  return {
    title: 'MCP',
    about:
      '`aggregation-mcp` as a host meets it. Its start: from spawning it to the answer of `tools/list` through the official MCP client over stdio, the first start with an empty compile cache, then warm ones, beside a bare Node.js process answering one line over the same pipes. A tool call: the median wall-clock time of a call through the MCP server (the official client over stdio, the server a process of its own) against the same call through `@aggregation/client`, both to the same sandbox server (a process of its own, read cache on, as shipped).',
    tables: [
      {
        headers: ['measure', 'ms', 'CPU ms'],
        rows: [
          ['start to tools/list, first (empty compile cache)', fmtMs(cold.wall), fmtMs(cold.cpu)],
          ['start to tools/list, warm (median)', fmtMs(warm.wall), fmtMs(warm.cpu)],
          ['bare node answering one line (median)', fmtMs(bare.wall), fmtMs(bare.cpu)],
        ],
      },
      { headers: ['tool', 'the same call through the client', 'client ms per call', 'MCP ms per call', 'overhead ms'], rows },
    ],
    targets,
    notes: [
      `${starts} starts, each in a fresh process (the first with an empty compile cache, which aggregation-mcp enables on Node.js 22.1+); the bare process alternates with them. The CPU time is the server's own (all its threads) when tools/list was answered: on a busy machine the wall time grows, the CPU time much less.`,
      `${rounds} interleaved rounds of ${callsPerRound} calls per variant after a warm-up, one call at a time; each round's median, then the median of the rounds. Wall-clock time: the MCP path crosses three processes (the client, the MCP server, the sandbox server), which CPU time of one would not show.`,
    ],
  };
}
