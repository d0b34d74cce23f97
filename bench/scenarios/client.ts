// 5. Client: the typed client against raw fetch on the same in-process server (app.fetch).
import { join } from 'node:path';
import { spawnChild } from '../lib/child.ts';
import type { Context } from '../lib/context.ts';
import type { Section } from '../lib/report.ts';
import { fmtInt, fmtPercent, median } from '../lib/stats.ts';
import type { ClientLoopArgs, Variant } from '../targets/client-loop.ts';

const MAX_OVERHEAD = 0.1;

export async function client(ctx: Context): Promise<Section> {
  const { options } = ctx;
  const loop = await spawnChild<{ pid: number }>(
    new URL('../targets/client-loop.ts', import.meta.url),
    { databasePath: join(ctx.workdir, 'client.sqlite') } satisfies ClientLoopArgs,
    { execArgv: ctx.execArgv('client-loop') },
  );
  try {
    const seconds = options.quick ? 1 : 5;
    const run = (variant: Variant, s: number) => loop.call<{ calls: number; seconds: number }>('run', { variant, seconds: s });
    const pairs = [
      { name: 'GET /accounts', raw: 'raw accounts', typed: 'client accounts', method: 'client.accounts.list()' },
      {
        name: 'GET /accounts',
        raw: 'raw accounts',
        typed: 'client accounts, no retry or timeout',
        method: 'the same with { retry: false, timeoutMs: 0 } (diagnostic)',
        diagnostic: true,
      },
      { name: 'GET /accounts/:id/transactions?count=100', raw: 'raw transactions', typed: 'client transactions', method: 'client.transactions.list(id, { count: 100 })' },
    ] as const;
    const variants = [...new Set(pairs.flatMap((pair) => [pair.raw, pair.typed]))];
    ctx.log('client: warm-up');
    for (const variant of variants) await run(variant, options.warmupSeconds);
    ctx.log(`client: ${options.rounds} round(s) of ${seconds} s per variant`);
    const rates: Record<string, number[]> = {};
    for (let round = 0; round < options.rounds; round++) {
      for (const variant of variants) {
        const r = await run(variant, seconds);
        (rates[variant] ??= []).push(r.calls / r.seconds);
      }
    }
    const rows: string[][] = [];
    const targets = [];
    for (const pair of pairs) {
      const raw = median(rates[pair.raw]!);
      const typed = median(rates[pair.typed]!);
      // Overhead: extra time per call, relative to raw fetch.
      const overhead = raw / typed - 1;
      if (!rows.some((row) => row[0] === `${pair.name}: raw fetch + json()`)) rows.push([`${pair.name}: raw fetch + json()`, fmtInt(raw), (1e6 / raw).toFixed(0), '']);
      rows.push([`${pair.name}: ${pair.method}`, fmtInt(typed), (1e6 / typed).toFixed(0), fmtPercent(overhead)]);
      if (!('diagnostic' in pair)) targets.push({ name: `${pair.name}: client overhead per call`, value: fmtPercent(overhead), goal: `< ${MAX_OVERHEAD * 100} %`, met: overhead < MAX_OVERHEAD });
    }
    return {
      title: 'Client',
      about: 'The typed client (`createClient` with `fetch: app.fetch`) against raw `fetch` semantics (`app.fetch(new Request(...))` then `json()`) on the same in-process server, one call at a time: the difference is the client\'s own work (Authorization and version headers, the retry wrapper, the per-attempt timeout (a controller, a timer and the signal handed to the fetch), error mapping, parsing).',
      tables: [{ headers: ['call', 'calls/s', 'µs per call', 'overhead vs raw'], rows }],
      targets,
      notes: [`${options.rounds} round(s) of ${seconds} s per variant, interleaved; medians. The server runs in the same process (SQLite file storage), so the absolute rates include the server's work.`],
    };
  } finally {
    await loop.stop();
  }
}
