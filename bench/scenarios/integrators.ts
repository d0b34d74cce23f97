// 6. Many integrators: 1,000 enrollments; each request picks one at random and reads its accounts, a balance, a
// transactions page or one transaction, and 5 % are payments with fresh idempotency keys (lib/mix.ts). The server
// as shipped (read cache on) against the limit replaying the same mix's bytes, and Prism on the same mix.
import { join } from 'node:path';
import { spawnChild } from '../lib/child.ts';
import { BARE_HTTP, BARE_HTTP_SCRIPT, comparisonTable, LIMIT, LIMIT_SCRIPT, PEER, perCoreOf, rpsOf } from '../lib/compare.ts';
import type { Context } from '../lib/context.ts';
import { enrollMany } from '../lib/enroll.ts';
import { failures, interleave, type LoadResult, load } from '../lib/load.ts';
import { describeMix, drawMix, MIX_SHARES, mixRequest, recordMix } from '../lib/mix.ts';
import { manyTargetTimes } from '../lib/options.ts';
import { startPeer } from '../lib/peer.ts';
import type { Section } from '../lib/report.ts';
import { spawnServer } from '../lib/server-target.ts';
import { fmtInt, fmtPercent, fmtRatio, fmtSeconds } from '../lib/stats.ts';
import type { ReadCacheCounts } from '../targets/server.ts';

const LIMIT_SHARE = 0.1;

/** Enrollments and pool size of the mix: the brief's thousand integrators, fewer in quick mode. */
export function mixSize(quick: boolean): { enrollments: number; pool: number } {
  return quick ? { enrollments: 50, pool: 300 } : { enrollments: 1000, pool: 2000 };
}

export async function integrators(ctx: Context): Promise<Section> {
  const { options } = ctx;
  const size = mixSize(options.quick);
  const times = manyTargetTimes(options);
  const server = await spawnServer(ctx, 'integrators-server', { databasePath: join(ctx.workdir, 'integrators.sqlite') });
  const bare = await spawnChild<{ url: string; pid: number }>(LIMIT_SCRIPT, {});
  const bareHttp = await spawnChild<{ url: string; pid: number }>(BARE_HTTP_SCRIPT, {});
  const prism = await startPeer({ version: '2020-10-12' });
  try {
    ctx.log(`integrators: enrolling ${fmtInt(size.enrollments)} integrators`);
    const t0 = performance.now();
    const enrolled = await enrollMany(server.info.url, 'username', size.enrollments);
    const enrollMs = performance.now() - t0;
    ctx.log(`integrators: drawing and recording ${fmtInt(size.pool)} requests of the mix`);
    const entries = await drawMix(server.info.url, enrolled, size.pool);
    const recorded = await recordMix(server.info.url, entries);
    await bare.call('record', recorded);
    await bareHttp.call('record', recorded);

    type MixTarget = { url: string; pid: number | undefined; replay: boolean };
    const targets: Record<string, MixTarget> = {
      [LIMIT]: { url: bare.info.url, pid: bare.pid, replay: true },
      [BARE_HTTP]: { url: bareHttp.info.url, pid: bareHttp.pid, replay: true },
      server: { url: server.info.url, pid: server.pid, replay: false },
      [PEER]: { url: prism.mock.url, pid: prism.pid, replay: false },
    };
    const run = (target: MixTarget, seconds: number) => () =>
      load({
        url: target.url,
        setupRequest: mixRequest(entries, { replay: target.replay }),
        connections: options.connections,
        seconds,
        ...(target.pid ? { pid: target.pid } : {}),
      });
    ctx.log('integrators: warm-up');
    if (times.warmupSeconds > 0) for (const target of Object.values(targets)) await run(target, times.warmupSeconds)();
    ctx.log(`integrators: ${options.rounds} round(s) of ${times.seconds} s per target`);
    const cacheBefore = await server.call<ReadCacheCounts>('readCache');
    const results = await interleave<LoadResult>(
      options.rounds,
      Object.fromEntries(Object.entries(targets).map(([name, target]) => [name, run(target, times.seconds)])),
    );
    const cacheAfter = await server.call<ReadCacheCounts>('readCache');
    const hits = cacheAfter.hits - cacheBefore.hits;
    const replayedShare = hits / (hits + cacheAfter.misses - cacheBefore.misses);
    const notes: string[] = [];
    for (const [name, rounds] of Object.entries(results)) {
      const failed = failures(`the mix on ${name}`, rounds);
      if (failed) notes.push(failed);
    }
    const ofLimit = perCoreOf(results.server!) / perCoreOf(results[LIMIT]!);
    const ofPeer = perCoreOf(results.server!) / perCoreOf(results[PEER]!);
    notes.push(
      `${fmtInt(enrolled.length)} enrollments of \`username\` (checking, savings, credit card each), made in ${fmtSeconds(enrollMs)} with 10 at a time. ` +
        `The mix: ${Object.entries(MIX_SHARES)
          .map(([kind, share]) => `${kind} ${share} %`)
          .join(
            ', ',
          )}; drawn once as a pool of ${fmtInt(entries.length)} requests (${describeMix(entries)}), each load request a random one of the pool, each payment with a fresh Idempotency-Key. ` +
        'The limit (bare `node:net`) writes the bytes the server answered to each request of the pool, prepared whole (a payment its recorded 202); bare `node:http` replays the same bytes. Prism answers the description’s examples on the same requests. ' +
        `The server's read cache replayed ${fmtPercent(replayedShare)} of the reads of the measured rounds: a payment makes its own enrollment's kept reads stale, not the others'. ` +
        `${options.connections} connections, ${options.rounds} round(s) of ${times.seconds} s per target, interleaved; medians.`,
    );
    return {
      title: 'Many integrators',
      about:
        'Requests of many integrators at once: each one picks one of many enrollments at random and reads its accounts, a balance, a page of transactions or one transaction, or makes a payment (5 %). The server as shipped (SQLite, read cache on) against the limit (bare `node:net` writing the server’s bytes for the same requests), bare `node:http` replaying them, and Prism.',
      tables: [comparisonTable('The whole mix', results, { limit: LIMIT, peer: PEER })],
      targets: [
        {
          name: 'the mix: server / limit, req/s per core (answered req/s)',
          value: `${fmtPercent(ofLimit)} (${fmtPercent(rpsOf(results.server!) / rpsOf(results[LIMIT]!))})`,
          goal: `≥ ${LIMIT_SHARE * 100} %`,
          met: ofLimit >= LIMIT_SHARE,
        },
        {
          name: 'the mix: server / Prism, req/s per core (answered req/s)',
          value: `${fmtRatio(ofPeer)} (${fmtRatio(rpsOf(results.server!) / rpsOf(results[PEER]!))})`,
          goal: 'report',
          met: null,
        },
      ],
      notes,
    };
  } finally {
    await prism.mock.stop();
    await bare.stop();
    await bareHttp.stop();
    await server.stop();
  }
}
