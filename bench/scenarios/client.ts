// 5. Client: the typed client against raw fetch on the same server, running in the harness's child process: over
// loopback HTTP with the platform fetch (the target), and through the app's own fetch without a network (where
// the client's work is the largest share of a call).
import { join } from 'node:path';
import { spawnChild } from '../lib/child.ts';
import type { Context } from '../lib/context.ts';
import type { Section, Target } from '../lib/report.ts';
import { fmtPercent, median } from '../lib/stats.ts';
import type { Caller, ClientLoopArgs, LoopResult, Operation, Transport, Variant } from '../targets/client-loop.ts';

const MAX_OVERHEAD = 0.1;

const operations: Record<Operation, { name: string; method: string }> = {
  accounts: { name: 'GET /accounts', method: 'client.accounts.list()' },
  transactions: { name: 'GET /accounts/:id/transactions?count=100', method: 'client.transactions.list(id, { count: 100 })' },
};
const transports: Record<Transport, string> = {
  http: 'loopback HTTP, platform fetch',
  app: 'no network, app.fetch',
};
const callers: Caller[] = ['raw', 'client', 'client, no retry or timeout'];

const key = (v: Variant) => `${v.transport} ${v.operation} ${v.caller}`;

/** One child process's medians per variant, CPU and wall-clock µs per call. */
type Medians = Map<string, { cpu: number; wall: number }>;

export async function client(ctx: Context): Promise<Section> {
  const { options } = ctx;
  // Several fresh processes: a process's own state (what the JIT made of each path, where its heap stands) moves
  // one variant against another by a few percent, and stays for the process's life, so rounds alone do not
  // average it out. In each, many short rounds, interleaved: drift in the machine's load over a few seconds
  // would otherwise move one variant and not the other.
  const processes = options.quick ? 1 : 3;
  const rounds = options.quick ? 2 : 7;
  const seconds = options.quick ? 0.3 : 0.8;
  const warmupSeconds = options.quick ? options.warmupSeconds : 1;
  const variants: Variant[] = [];
  for (const transport of Object.keys(transports) as Transport[]) {
    for (const operation of Object.keys(operations) as Operation[]) {
      // The diagnostic variant only where the client's share is largest.
      for (const caller of callers)
        if (caller !== 'client, no retry or timeout' || operation === 'accounts') variants.push({ transport, operation, caller });
    }
  }
  const measured: Medians[] = [];
  for (let index = 0; index < processes; index++) {
    ctx.log(`client: process ${index + 1} of ${processes}: warm-up, then ${rounds} rounds of ${seconds} s per variant`);
    measured.push(await measureInProcess(ctx, variants, { rounds, seconds, warmupSeconds, name: `client-loop-${index + 1}` }));
  }
  const across = (v: Variant, pick: (m: { cpu: number; wall: number }) => number) => median(measured.map((m) => pick(m.get(key(v))!)));
  const overheads = (v: Variant) => measured.map((m) => m.get(key(v))!.cpu / m.get(key({ ...v, caller: 'raw' }))!.cpu - 1);

  const rows: string[][] = [];
  const targets: Target[] = [];
  const spread: string[] = [];
  for (const variant of variants) {
    const op = operations[variant.operation];
    const overhead = median(overheads(variant));
    const call =
      variant.caller === 'raw'
        ? 'raw fetch + json()'
        : variant.caller === 'client'
          ? op.method
          : 'the same with { retry: false, timeoutMs: 0 } (diagnostic)';
    rows.push([
      transports[variant.transport],
      `${op.name}: ${call}`,
      across(variant, (m) => m.wall).toFixed(1),
      across(variant, (m) => m.cpu).toFixed(1),
      variant.caller === 'raw' ? '' : fmtPercent(overhead),
    ]);
    if (variant.caller !== 'client') continue;
    spread.push(`${op.name}, ${transports[variant.transport]}: ${overheads(variant).map(fmtPercent).join(', ')}`);
    // The target is the client over the network, as integrators call the service; without a network the
    // same figure is reported, as the client's work against the cheapest call there is.
    targets.push({
      name: `${op.name}, ${transports[variant.transport]}: client overhead per call (CPU)`,
      value: fmtPercent(overhead),
      goal: variant.transport === 'http' ? `< ${MAX_OVERHEAD * 100} %` : 'report',
      met: variant.transport === 'http' ? overhead < MAX_OVERHEAD : null,
    });
  }
  return {
    title: 'Client',
    about:
      "The typed client (`createClient`) against raw `fetch(url, { headers })` then `json()`, one call at a time, on the same server running in the same process: over loopback HTTP with the platform fetch, and without a network through the app's own `fetch` (`app.fetch(new Request(...))` for the raw calls, `createClient({ fetch: app.fetch })`). The difference is the client's own work: openapi-fetch building the Request, the Authorization header, the retry wrapper, the per-attempt timeout, error mapping, parsing.",
    tables: [{ headers: ['transport', 'call', 'µs per call', 'CPU µs per call', 'overhead vs raw (CPU)'], rows }],
    targets,
    notes: [
      `${processes} fresh process(es), each warmed up, then ${rounds} rounds of ${seconds} s per variant, interleaved; each process's medians, then the median across processes. The overhead compares the CPU time of the process per call (all its threads, the collector's included), which other work on the machine does not inflate the way it does wall-clock time. The server (read cache on, as shipped; SQLite file storage) runs in the same process, so the absolute figures include its work.`,
      `The client's overhead in each process: ${spread.join('; ')}.`,
    ],
  };
}

async function measureInProcess(
  ctx: Context,
  variants: Variant[],
  plan: { rounds: number; seconds: number; warmupSeconds: number; name: string },
): Promise<Medians> {
  const loop = await spawnChild<{ pid: number }>(
    new URL('../targets/client-loop.ts', import.meta.url),
    { databasePath: join(ctx.workdir, `${plan.name}.sqlite`) } satisfies ClientLoopArgs,
    { execArgv: ctx.execArgv(plan.name) },
  );
  try {
    const run = (variant: Variant, s: number) => loop.call<LoopResult>('run', { variant, seconds: s });
    for (const variant of variants) await run(variant, plan.warmupSeconds);
    const results = new Map<string, LoopResult[]>();
    for (let round = 0; round < plan.rounds; round++) {
      for (const variant of variants) {
        const result = await run(variant, plan.seconds);
        results.set(key(variant), [...(results.get(key(variant)) ?? []), result]);
      }
    }
    return new Map(
      variants.map((v) => [
        key(v),
        { cpu: median(results.get(key(v))!.map((r) => r.cpuMicros)), wall: median(results.get(key(v))!.map((r) => r.wallMicros)) },
      ]),
    );
  } finally {
    await loop.stop();
  }
}
