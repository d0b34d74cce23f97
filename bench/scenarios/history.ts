// 2. Scale of history: a deep page (count=100, from_id near the end) on accounts with 1,000 and
// 1,000,000 transactions, and the unpaged list of the million streamed while the server's RSS
// is watched. The histories are seeded by the server itself: the sandbox user `history.<n>`.
import { join } from 'node:path';
import { type Child, spawnChild } from '../lib/child.ts';
import type { Context } from '../lib/context.ts';
import { type HistoryFacts, historyFacts } from '../lib/history-db.ts';
import { expectStatus } from '../lib/http.ts';
import { failures, interleave, type LoadResult, load } from '../lib/load.ts';
import type { Section, Table } from '../lib/report.ts';
import { spawnServers } from '../lib/server-target.ts';
import { fmtInt, fmtMb, fmtMs, fmtRatio, fmtSeconds, medianOf } from '../lib/stats.ts';
import { readStream, type StreamResult } from '../lib/stream.ts';
import type { ServerArgs, ServerInfo } from '../targets/server.ts';

const SMALL = 1_000;
const PAGE = 100;
const DEPTH = 0.9;
const MAX_SLOWDOWN = 1.5;
const MAX_STREAM_GROWTH = 100 * 1024 * 1024;

export async function history(ctx: Context): Promise<Section> {
  const { options } = ctx;
  // Quick mode (CI's smoke run) seeds a tenth: a million rows take about a minute to write and to stream.
  const largeCount = options.quick ? 100_000 : 1_000_000;
  const databasePath = join(ctx.workdir, 'history.sqlite');
  const notes: string[] = [];

  ctx.log(`history: seeding ${fmtInt(SMALL)} and ${fmtInt(largeCount)} transactions through the sandbox API`);
  const seeder = await spawnChild<ServerInfo>(
    new URL('../targets/server.ts', import.meta.url),
    { databasePath, enroll: [`history.${SMALL}`, `history.${largeCount}`], webhooks: false } satisfies ServerArgs,
    // A million rows take a minute or two on a quiet machine, and several times that on a busy one.
    { readyTimeoutMs: 900_000 },
  );
  const enrolled = seeder.info.enrolled;
  await seeder.stop();
  const [small, large] = enrolled.map((e) => ({
    enrolled: e,
    account: e.accounts[0]!,
    facts: historyFacts(databasePath, e.accounts[0]!.id, DEPTH, PAGE) as HistoryFacts,
  })) as [Hist, Hist];
  type Hist = { enrolled: (typeof enrolled)[number]; account: (typeof enrolled)[number]['accounts'][number]; facts: HistoryFacts };
  notes.push(
    `Seeding through \`POST /sandbox/enrollments\` (one request each, the server's own bulk path): ` +
      `${fmtInt(small.facts.count)} rows in ${fmtSeconds(small.enrolled.seconds * 1000)}, ${fmtInt(large.facts.count)} rows in ${fmtSeconds(large.enrolled.seconds * 1000)}.`,
  );

  // A fresh server on the seeded file: its memory holds nothing of the seeding. Its read cache is
  // off: a replayed page costs the same at any depth, and this measures the storage's paging.
  const { server, before } = await spawnServers(ctx, 'history', { databasePath, readCache: false });
  try {
    const pageOf = (h: Hist) => `/accounts/${h.account.id}/transactions?count=${PAGE}&from_id=${h.facts.deepId}`;
    for (const h of [small, large]) {
      const recorded = await expectStatus(server.info.url + pageOf(h), { headers: { authorization: h.enrolled.authorization } }, 200);
      const length = (JSON.parse(Buffer.from(recorded.body).toString()) as unknown[]).length;
      if (length !== PAGE) throw new Error(`expected a page of ${PAGE}, got ${length} for ${pageOf(h)}`);
    }
    const run =
      (h: Hist, seconds: number, target: Child<ServerInfo> = server) =>
      () =>
        load({
          url: target.info.url + pageOf(h),
          headers: { authorization: h.enrolled.authorization },
          connections: options.connections,
          seconds,
          pid: target.pid,
        });
    ctx.log('history: deep pages: warm-up');
    await run(small, options.warmupSeconds)();
    await run(large, options.warmupSeconds)();
    if (before) await run(small, options.warmupSeconds, before)();
    ctx.log(`history: deep pages: ${options.rounds} round(s) of ${options.seconds} s`);
    const results = await interleave<LoadResult>(options.rounds, {
      small: run(small, options.seconds),
      large: run(large, options.seconds),
      // The same file served by the server before fixes (same enrollments and tokens).
      ...(before
        ? { 'small, server before fixes': run(small, options.seconds, before), 'large, server before fixes': run(large, options.seconds, before) }
        : {}),
    });
    const rps = (name: string) => medianOf(results[name]!, (r) => r.rps);
    const p50 = (name: string) => medianOf(results[name]!, (r) => r.p50);
    const slowdown = rps('small') / rps('large');
    const pages: Table = {
      caption: `One page (count=${PAGE}, from_id at ${DEPTH * 100} % depth)`,
      headers: ['history', 'from_id position', 'req/s', 'p50 ms', 'p99 ms', 'RSS peak MB', 'slowdown vs small'],
      rows: Object.keys(results).map((name) => {
        const h = name.startsWith('small') ? small : large;
        return [
          `${fmtInt(h.facts.count)} transactions${name.includes('before') ? ' (server before fixes)' : ''}`,
          fmtInt(h.facts.position),
          fmtInt(rps(name)),
          fmtMs(p50(name)),
          fmtMs(medianOf(results[name]!, (r) => r.p99)),
          fmtMb(medianOf(results[name]!, (r) => r.rssPeak)),
          fmtRatio(rps(name.includes('before') ? 'small, server before fixes' : 'small') / rps(name)),
        ];
      }),
    };
    for (const [name, rounds] of Object.entries(results)) {
      const failed = failures(`deep page on ${name}`, rounds);
      if (failed) notes.push(failed);
    }

    ctx.log(`history: streaming the unpaged list of ${fmtInt(large.facts.count)} transactions, ${options.rounds + 1} time(s)`);
    const streams: StreamResult[] = [];
    // The last round reads like a slow client: it stops for a while partway through.
    const pause = { afterBytes: 20 * 1024 * 1024, ms: options.quick ? 2000 : 5000 };
    for (let round = 0; round <= options.rounds; round++) {
      const result = await readStream(
        `${server.info.url}/accounts/${large.account.id}/transactions`,
        { authorization: large.enrolled.authorization },
        server.pid,
        round === options.rounds ? pause : undefined,
      );
      if (result.status !== 200 || !result.wellFormed || result.items !== large.facts.count) {
        notes.push(
          `Stream round ${round + 1}: status ${result.status}, ${fmtInt(result.items)} of ${fmtInt(large.facts.count)} transactions, well-formed array: ${result.wellFormed}.`,
        );
      }
      streams.push(result);
    }
    const growths = streams.map((s) => s.rssPeak - s.rssBefore);
    const worstGrowth = Math.max(...growths);
    const stream: Table = {
      caption: `Unpaged list of ${fmtInt(large.facts.count)} transactions, streamed`,
      headers: ['round', 'transactions', 'MB sent', 'seconds', 'transactions/s', 'first byte ms', 'RSS before MB', 'RSS peak MB', 'RSS growth MB'],
      rows: streams.map((s, i) => [
        i === options.rounds ? `${i + 1} (reader stops ${pause.ms / 1000} s after 20 MB)` : String(i + 1),
        fmtInt(s.items),
        fmtMb(s.bytes),
        s.seconds.toFixed(1),
        fmtInt(s.items / s.seconds),
        fmtMs(s.firstByteMs),
        fmtMb(s.rssBefore),
        fmtMb(s.rssPeak),
        fmtMb(growths[i]!),
      ]),
    };
    notes.push(
      `${options.connections} connections for the pages, ${options.rounds} round(s) of ${options.seconds} s each, interleaved; medians. ` +
        'The stream is read by one client as fast as it can, and once more by a reader that stops partway (a server that ignores backpressure would buffer meanwhile); RSS is sampled every 50 ms from /proc.',
    );
    return {
      title: 'Scale of history',
      about: `A page deep in a history of ${fmtInt(small.facts.count)} and of ${fmtInt(large.facts.count)} transactions (keyset pagination should make them cost the same), and the whole history of the large account in one unpaged, streamed response. The read cache is off in this scenario: every page is read from SQLite.`,
      tables: [pages, stream],
      targets: [
        { name: 'deep page: large / small time per request', value: fmtRatio(slowdown), goal: `≤ ${MAX_SLOWDOWN}×`, met: slowdown <= MAX_SLOWDOWN },
        {
          name: `unpaged stream of ${fmtInt(large.facts.count)}: server RSS growth (worst round)`,
          value: `${fmtMb(worstGrowth)} MB`,
          goal: '< 100 MB',
          met: worstGrowth < MAX_STREAM_GROWTH,
        },
      ],
      notes,
    };
  } finally {
    await before?.stop();
    await server.stop();
  }
}
