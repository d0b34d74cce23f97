// 7. PostgreSQL: the two rendered reads of the reads scenario and the many-integrators mix on a PostgreSQL
// database (a local throwaway cluster), served by one server process and by two on the same database (read cache
// as shipped for the mix, off for the rendered reads), beside the same server on SQLite and the limit writing the
// PostgreSQL server's bytes (and, for the mix, bare node:http replaying them: the limit before the node:net one).
import { copyFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { type Child, spawnChild } from '../lib/child.ts';
import { BARE_HTTP, BARE_HTTP_SCRIPT, comparisonTable, LIMIT, LIMIT_SCRIPT, perCoreOf, rpsOf } from '../lib/compare.ts';
import type { Context } from '../lib/context.ts';
import { checkingAccount, type Enrolled, enrollMany } from '../lib/enroll.ts';
import { expectStatus } from '../lib/http.ts';
import { failures, interleave, type LoadResult, type LoadSpec, loadAll } from '../lib/load.ts';
import { drawMix, type MixEntry, mixRequest, recordMix } from '../lib/mix.ts';
import { manyTargetTimes } from '../lib/options.ts';
import { benchPostgres, clusterCpu } from '../lib/postgres.ts';
import type { Section, Table, Target } from '../lib/report.ts';
import { spawnServer } from '../lib/server-target.ts';
import { fmtInt, fmtPercent, median } from '../lib/stats.ts';
import type { ReadCacheCounts, ServerInfo } from '../targets/server.ts';
import { mixSize } from './integrators.ts';

const TITLE = 'PostgreSQL';
/** What the mix on one PostgreSQL process must reach of the limit, per core of the server. */
const MIX_ONE_PROCESS_SHARE = 0.25;

/** What one load sends: one URL path with a token (a read), or the mix's per-request hook. */
interface Sent {
  path?: string;
  authorization?: string;
  setupRequest?: LoadSpec['setupRequest'];
}

/** A target of this scenario: one or more processes on one database, with the enrollments and the mix drawn there. */
interface LoadTarget {
  urls: string[];
  pids: number[];
  enrolled: Enrolled[];
  entries: MixEntry[];
  replay: boolean;
  /** CPU seconds so far of the database's own processes (PostgreSQL). */
  dbCpu?: () => number;
}

export async function postgres(ctx: Context): Promise<Section> {
  const { options } = ctx;
  const times = manyTargetTimes(options);
  const found = await benchPostgres();
  if ('skip' in found) {
    ctx.log(`postgres: skipped: ${found.skip}`);
    return {
      title: TITLE,
      about: 'Not measured: no PostgreSQL here.',
      tables: [],
      targets: [{ name: 'PostgreSQL scenarios', value: 'skipped', goal: 'report', met: null }],
      notes: [`Skipped: ${found.skip}`],
    };
  }
  const children: Child<unknown>[] = [];
  const spawn = async (name: string, args: Parameters<typeof spawnServer>[2]) => {
    const child = await spawnServer(ctx, `postgres-${name}`, args);
    children.push(child);
    return child;
  };
  try {
    const { enrollments, pool } = mixSize(options.quick);
    const databaseUrl = await found.postgres.database();
    const dbCpu = clusterCpu(databaseUrl);

    // SQLite: one file enrolled once, then copied, so that the server with its read cache on and off serve the same data.
    const sqlitePath = join(ctx.workdir, 'postgres-sqlite.sqlite');
    const seeder = await spawn('sqlite-seeder', { databasePath: sqlitePath, webhooks: false });
    ctx.log(`postgres: enrolling ${fmtInt(enrollments)} integrators on SQLite`);
    const sqliteEnrolled = await enrollMany(seeder.info.url, 'username', enrollments);
    const sqliteEntries = await drawMix(seeder.info.url, sqliteEnrolled, pool);
    ctx.log('postgres: copying the SQLite file');
    await seeder.stop();
    const cachedPath = join(ctx.workdir, 'postgres-sqlite-cached.sqlite');
    for (const suffix of ['', '-wal']) if (existsSync(sqlitePath + suffix)) copyFileSync(sqlitePath + suffix, cachedPath + suffix);
    const sqliteOff = await spawn('sqlite-uncached', { databasePath: sqlitePath, readCache: false });
    const sqliteOn = await spawn('sqlite', { databasePath: cachedPath });

    ctx.log('postgres: starting four servers on PostgreSQL (two as shipped, two with the read cache off)');
    const pg1 = await spawn('server-1', { databaseUrl });
    const pg2 = await spawn('server-2', { databaseUrl });
    const pg1Off = await spawn('server-1-uncached', { databaseUrl, readCache: false });
    const pg2Off = await spawn('server-2-uncached', { databaseUrl, readCache: false });
    ctx.log(`postgres: enrolling ${fmtInt(enrollments)} integrators on PostgreSQL`);
    const t0 = performance.now();
    const pgEnrolled = await enrollMany(pg1.info.url, 'username', enrollments);
    const pgEnrollSeconds = (performance.now() - t0) / 1000;
    const pgEntries = await drawMix(pg1.info.url, pgEnrolled, pool);

    // The limit replays what the PostgreSQL server answered: the two reads of its first enrollment and the mix; bare
    // node:http the mix.
    const bare = await spawnChild<{ url: string; pid: number }>(LIMIT_SCRIPT, {});
    children.push(bare);
    const bareHttp = await spawnChild<{ url: string; pid: number }>(BARE_HTTP_SCRIPT, {});
    children.push(bareHttp);
    const reads = [
      { name: 'GET /accounts (rendered)', of: (_e: Enrolled) => '/accounts' },
      {
        name: 'GET /accounts/:id/transactions?count=100 (rendered)',
        of: (e: Enrolled) => `/accounts/${checkingAccount(e.accounts).id}/transactions?count=100`,
      },
    ];
    const first = pgEnrolled[0]!;
    const recorded = await recordMix(pg1.info.url, pgEntries);
    for (const read of reads)
      recorded[read.of(first)] = await expectStatus(pg1.info.url + read.of(first), { headers: { authorization: first.authorization } }, 200);
    await bare.call('record', recorded);
    await bareHttp.call('record', recorded);

    const on = (servers: Child<ServerInfo>[], enrolled: Enrolled[], entries: MixEntry[], db?: () => number): LoadTarget => ({
      urls: servers.map((s) => s.info.url),
      pids: servers.map((s) => s.pid),
      enrolled,
      entries,
      replay: false,
      ...(db ? { dbCpu: db } : {}),
    });
    const limit: LoadTarget = { urls: [bare.info.url], pids: [bare.pid], enrolled: pgEnrolled, entries: pgEntries, replay: true };
    const http: LoadTarget = { urls: [bareHttp.info.url], pids: [bareHttp.pid], enrolled: pgEnrolled, entries: pgEntries, replay: true };
    const sqliteRendered = on([sqliteOff], sqliteEnrolled, sqliteEntries);
    const pgOne = on([pg1], pgEnrolled, pgEntries, dbCpu);
    const pgTwo = on([pg1, pg2], pgEnrolled, pgEntries, dbCpu);
    const pgOneOff = on([pg1Off], pgEnrolled, pgEntries, dbCpu);
    const pgTwoOff = on([pg1Off, pg2Off], pgEnrolled, pgEntries, dbCpu);
    const MIX = 'The many-integrators mix (5 % payments)';
    const loads = [
      ...reads.map((read) => ({
        caption: read.name,
        spec: (t: LoadTarget): Sent => ({ path: read.of(t.enrolled[0]!), authorization: t.enrolled[0]!.authorization }),
        targets: {
          [LIMIT]: limit,
          'SQLite, read cache off': sqliteRendered,
          'PostgreSQL, one process': pgOneOff,
          'PostgreSQL, two processes': pgTwoOff,
        },
      })),
      {
        caption: MIX,
        spec: (t: LoadTarget): Sent => ({ setupRequest: mixRequest(t.entries, { replay: t.replay }) }),
        targets: {
          [LIMIT]: limit,
          [BARE_HTTP]: http,
          'SQLite, read cache as shipped': on([sqliteOn], sqliteEnrolled, sqliteEntries),
          'SQLite, read cache off': sqliteRendered,
          'PostgreSQL, one process': pgOne,
          'PostgreSQL, two processes': pgTwo,
          'PostgreSQL, one process, read cache off': pgOneOff,
        },
      },
    ];
    const cacheCounts = async () => {
      const counts = await Promise.all([pg1, pg2].map((child) => child.call<ReadCacheCounts>('readCache')));
      return { hits: counts.reduce((sum, c) => sum + c.hits, 0), misses: counts.reduce((sum, c) => sum + c.misses, 0) };
    };
    let replayedShare = Number.NaN;

    const tables: Table[] = [];
    const targets: Target[] = [];
    const notes: string[] = [];
    for (const { caption, spec, targets: named } of loads) {
      const dbCpuPerResponse: Record<string, number[]> = {};
      const run = (name: string, target: LoadTarget, seconds: number) => async () => {
        const { path, authorization, setupRequest } = spec(target);
        const dbBefore = target.dbCpu?.() ?? Number.NaN;
        // Two processes share the connections, as behind a load balancer.
        const result = await loadAll(
          target.urls.map((url, i) => ({
            url: url + (path ?? ''),
            ...(authorization ? { headers: { authorization } } : {}),
            ...(setupRequest ? { setupRequest } : {}),
            connections: Math.ceil(options.connections / target.urls.length),
            seconds,
            pid: target.pids[i]!,
          })),
        );
        const dbSeconds = (target.dbCpu?.() ?? Number.NaN) - dbBefore;
        dbCpuPerResponse[name] = [...(dbCpuPerResponse[name] ?? []), (dbSeconds / (result.rps * result.seconds)) * 1e6];
        return result;
      };
      ctx.log(`postgres: ${caption}: warm-up`);
      if (times.warmupSeconds > 0) for (const [name, target] of Object.entries(named)) await run(name, target, times.warmupSeconds)();
      for (const name of Object.keys(named)) dbCpuPerResponse[name] = [];
      ctx.log(`postgres: ${caption}: ${options.rounds} round(s) of ${times.seconds} s per target`);
      const cacheBefore = await cacheCounts();
      const results = await interleave<LoadResult>(
        options.rounds,
        Object.fromEntries(Object.entries(named).map(([name, target]) => [name, run(name, target, times.seconds)])),
      );
      if (caption === MIX) {
        const cacheAfter = await cacheCounts();
        const hits = cacheAfter.hits - cacheBefore.hits;
        replayedShare = hits / (hits + cacheAfter.misses - cacheBefore.misses);
      }
      const dbCpuOf = (name: string) => median(dbCpuPerResponse[name]!);
      tables.push(
        comparisonTable(caption, results, { limit: LIMIT }, [
          { header: 'PostgreSQL CPU µs per response', cell: (name) => (Number.isFinite(dbCpuOf(name)) ? dbCpuOf(name).toFixed(1) : '') },
          {
            header: 'req/s per core, server and database',
            cell: (name, rounds) =>
              Number.isFinite(dbCpuOf(name)) ? fmtInt(1e6 / (1e6 / perCoreOf(rounds) + dbCpuOf(name))) : fmtInt(perCoreOf(rounds)),
          },
        ]),
      );
      // A target's share of another's requests per second per core (the bench's measure), and of its answered ones.
      const perCoreShare = (name: string, of = LIMIT) => perCoreOf(results[name]!) / perCoreOf(results[of]!);
      const answeredShare = (name: string, of = LIMIT) => rpsOf(results[name]!) / rpsOf(results[of]!);
      /** The mix's row value for the servers of `name`, against `of`. */
      const mixShare = (name: string, servers: string, of = LIMIT) =>
        `${fmtPercent(perCoreShare(name, of))} per core of the ${servers} (answered ${fmtPercent(answeredShare(name, of))})`;
      if (caption === MIX) {
        targets.push(
          {
            name: 'PostgreSQL many-integrators mix, one process / limit',
            value: mixShare('PostgreSQL, one process', 'server'),
            goal: `≥ ${MIX_ONE_PROCESS_SHARE * 100} %`,
            met: perCoreShare('PostgreSQL, one process') >= MIX_ONE_PROCESS_SHARE,
          },
          {
            name: 'PostgreSQL many-integrators mix, two processes / limit',
            value: mixShare('PostgreSQL, two processes', 'servers'),
            goal: 'report',
            met: null,
          },
          {
            name: 'PostgreSQL many-integrators mix, one process / bare node:http',
            value: mixShare('PostgreSQL, one process', 'server', BARE_HTTP),
            goal: 'report',
            met: null,
          },
        );
      } else {
        for (const name of ['PostgreSQL, one process', 'PostgreSQL, two processes']) {
          targets.push({
            name: `${caption}: ${name} / limit, req/s per core of the server (answered req/s)`,
            value: `${fmtPercent(perCoreShare(name))} (${fmtPercent(answeredShare(name))})`,
            goal: 'report',
            met: null,
          });
        }
      }
      for (const [name, rounds] of Object.entries(results)) {
        const failed = failures(`${caption} on ${name}`, rounds);
        if (failed) notes.push(failed);
      }
    }
    notes.push(
      `${fmtInt(enrollments)} enrollments of \`username\` on each database (on PostgreSQL made in ${pgEnrollSeconds.toFixed(1)} s, 10 at a time); the mix is drawn per database (its ids), ${fmtInt(pool)} requests each; the limit replays the PostgreSQL server's bytes, and so does bare \`node:http\` for the mix. ` +
        "The rendered reads run on servers with the read cache off. In the mix the servers keep their read cache as shipped: each process learns the others' writes from PostgreSQL notifications and, before replaying, waits for a barrier on its listening connection (read-your-writes across processes); " +
        `the two processes replayed ${fmtPercent(replayedShare)} of the mix's reads in the measured rounds. ` +
        `Two processes share the ${options.connections} connections, half each, on one database (as behind a load balancer); their CPU is added up. ` +
        "The cluster is a throwaway one on this machine (fsync off, as the server's tests run it): its processes' CPU per response (from /proc) is counted apart, since the server's per-core figure leaves it out. " +
        `${options.rounds} round(s) of ${times.seconds} s per target and load, interleaved; medians.`,
    );
    return {
      title: TITLE,
      about:
        'The rendered reads (`GET /accounts`, a page of 100 transactions, read cache off) and the many-integrators mix (read cache as shipped) on PostgreSQL, with one server process and with two on the same database, beside the same server on SQLite and the limit (bare `node:net` writing the PostgreSQL server’s bytes); for the mix, bare `node:http` replaying the same bytes too (the limit the bench used before `node:net`), reported.',
      tables,
      targets,
      notes,
    };
  } finally {
    for (const child of children.reverse()) await child.stop();
    await found.postgres.stop();
  }
}
