// Where the many-integrators mix spends the PostgreSQL server's CPU: one server process on a throwaway cluster (or
// on SQLite, to compare), the mix of `npm run bench` (or only some of its kinds), a warm-up, then rounds of load
// interleaved with the limit replaying the server's bytes. Per round: the server's and the limit's CPU µs per
// response and their per-core ratio, the cluster's CPU µs per response, the reads replayed, and the statements the
// server sent per response (the change feed's barriers among them). Usage (from the repository root, after
// `npx turbo run build --filter=@aggregation/server...`):
//   node bench/tools/postgres-mix.ts [--enrollments=200] [--pool=1000] [--seconds=5] [--rounds=3]
//     [--kinds=payment | accounts,balances,page,'page from_id',transaction] [--read-cache-off] [--sqlite] [--profile]
//     [--module=path/to/another/build/index.js] [--against=path/to/another/build/index.js] [--split]
// (--profile: a CPU profile of the first measured round, summarized; the file stays in bench/profiles/. --module: the
// server of another build, e.g. a copy of packages/server/dist made before a change, to compare under the same load.
// --against: a second server process of that build on the same database, loaded in the same rounds, the two one right
// after the other, in turns first (as fresh-page.ts does): an A/B that the machine's drift between runs does not blur.
// --split: the enrollments in two halves, and per round four loads instead of the mix: the reads of one half, the
// payments of the other, the two together, and those reads with their own half's payments; what the parts add up to
// beside what the loads together cost.)
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { spawnChild } from '../lib/child.ts';
import { LIMIT_SCRIPT } from '../lib/compare.ts';
import { profilesDir } from '../lib/context.ts';
import { enrollMany } from '../lib/enroll.ts';
import { load } from '../lib/load.ts';
import { drawMix, MIX_SHARES, type MixEntry, type MixKind, mixRequest, recordMix } from '../lib/mix.ts';
import { benchPostgres, clusterCpu } from '../lib/postgres.ts';
import { median } from '../lib/stats.ts';
import type { ReadCacheCounts, ServerArgs, ServerInfo } from '../targets/server.ts';
import { summarize } from './profile-top.ts';

const { values } = parseArgs({
  options: {
    enrollments: { type: 'string', default: '200' },
    pool: { type: 'string', default: '1000' },
    seconds: { type: 'string', default: '5' },
    rounds: { type: 'string', default: '3' },
    kinds: { type: 'string' },
    'read-cache-off': { type: 'boolean', default: false },
    sqlite: { type: 'boolean', default: false },
    profile: { type: 'boolean', default: false },
    module: { type: 'string' },
    against: { type: 'string' },
    split: { type: 'boolean', default: false },
  },
});
const kinds = values.kinds?.split(',') as MixKind[] | undefined;
for (const kind of kinds ?? []) if (!(kind in MIX_SHARES)) throw new Error(`unknown kind ${kind}; known: ${Object.keys(MIX_SHARES).join(', ')}`);
if (values.split && (kinds || values.against)) throw new Error('--split loads the whole mix on one server: leave out --kinds and --against');

const workdir = mkdtempSync(join(tmpdir(), 'aggregation-postgres-mix-'));
const found = values.sqlite ? undefined : await benchPostgres();
if (found && 'skip' in found) throw new Error(`no PostgreSQL: ${found.skip}`);
const databaseUrl = found ? await found.postgres.database() : undefined;
const dbCpu = databaseUrl ? clusterCpu(databaseUrl) : () => Number.NaN;
const serverOf = (module: string | undefined) =>
  spawnChild<ServerInfo>(new URL('../targets/server.ts', import.meta.url), {
    ...(databaseUrl ? { databaseUrl } : { databasePath: join(workdir, 'mix.sqlite') }),
    readCache: !values['read-cache-off'],
    countStatements: true,
    ...(module ? { module: resolve(module) } : {}),
  } satisfies ServerArgs);
const server = await serverOf(values.module);
if (values.against && !databaseUrl) throw new Error('--against needs PostgreSQL: two processes share one database');
const against = values.against ? await serverOf(values.against) : undefined;
const servers = against ? [server, against] : [server];
const limit = await spawnChild<{ url: string; pid: number }>(LIMIT_SCRIPT, {});
try {
  console.log(`enrolling ${values.enrollments} integrators on ${databaseUrl ? 'PostgreSQL' : 'SQLite'}`);
  const enrolled = await enrollMany(server.info.url, 'username', Number(values.enrollments));
  const drawn = await drawMix(server.info.url, enrolled, Number(values.pool));
  // --split compares the server with itself: the limit's bytes are recorded only for the rounds against it.
  if (!values.split) await limit.call('record', await recordMix(server.info.url, drawn));
  const entries = kinds ? drawn.filter((entry) => kinds.includes(entry.kind)) : drawn;

  /** One load of the server or the limit; the server's also reports its replays, the cluster's CPU and its statements. */
  const run = async (target: 'server' | 'limit', seconds: number, loaded = servers[0]!, requests = entries) => {
    const onServer = target === 'server';
    const before = { cache: await loaded.call<ReadCacheCounts>('readCache'), db: dbCpu() };
    await loaded.call('statements');
    const result = await load({
      url: onServer ? loaded.info.url : limit.info.url,
      connections: 10,
      seconds,
      pid: onServer ? loaded.pid : limit.pid,
      setupRequest: mixRequest(requests, { replay: !onServer }),
    });
    const responses = result.rps * result.seconds;
    if (!onServer) return result.cpuPerResponse;
    const cache = await loaded.call<ReadCacheCounts>('readCache');
    const statements = await loaded.call<Record<string, number>>('statements');
    const hits = cache.hits - before.cache.hits;
    const misses = cache.misses - before.cache.misses;
    console.log(
      `server: ${Math.round(result.rps)} req/s, ${result.cpuPerResponse.toFixed(1)} µs CPU per response, database ${(((dbCpu() - before.db) / responses) * 1e6).toFixed(1)} µs, ` +
        `replayed ${((100 * hits) / Math.max(1, hits + misses)).toFixed(1)} % of ${hits + misses} reads, non-2xx ${result.non2xx}`,
    );
    for (const [text, count] of Object.entries(statements).sort((a, b) => b[1] - a[1]))
      console.log(`  ${(count / responses).toFixed(3)} per response  ${text}`);
    return result.cpuPerResponse;
  };

  for (const each of servers) await run('server', 3, each);
  if (values.split) {
    await splitRounds(entries, Number(values.rounds), (requests, name) => {
      console.log(`${name}:`);
      return run('server', Number(values.seconds), servers[0], requests);
    });
  } else {
    await run('limit', 1);
    const ratios: number[] = [];
    const againstRatios: number[] = [];
    for (let round = 0; round < Number(values.rounds); round++) {
      const profile = values.profile && round === 0 ? join(profilesDir, `postgres-mix-${Date.now()}.cpuprofile`) : undefined;
      if (profile) {
        mkdirSync(profilesDir, { recursive: true });
        await server.call('profileStart');
      }
      // With --against, the other build goes first in odd rounds: neither gains from always following the other.
      const againstFirst = against !== undefined && round % 2 === 1;
      const runAgainst = async () => {
        console.log('against:');
        return run('server', Number(values.seconds), against);
      };
      const againstBefore = againstFirst ? await runAgainst() : undefined;
      const serverCpu = await run('server', Number(values.seconds));
      if (profile) await server.call('profileStop', profile);
      const againstCpu = againstBefore ?? (against && (await runAgainst()));
      const limitCpu = await run('limit', Number(values.seconds));
      ratios.push(limitCpu / serverCpu);
      if (againstCpu) againstRatios.push(limitCpu / againstCpu);
      console.log(`limit: ${limitCpu.toFixed(1)} µs CPU per response; server / limit per core: ${((100 * limitCpu) / serverCpu).toFixed(1)} %`);
      if (profile) {
        console.log(`profile: ${profile}\n${summarize(profile, 30)}`);
      }
    }
    console.log(`median, server / limit per core: ${(100 * median(ratios)).toFixed(1)} %`);
    if (against) {
      const paired = ratios.map((ratio, i) => ratio / againstRatios[i]!);
      console.log(`median, against / limit per core: ${(100 * median(againstRatios)).toFixed(1)} %`);
      console.log(
        `server / against, CPU per response, per round: ${paired.map((p) => (1 / p).toFixed(3)).join(' ')}; median ${(1 / median(paired)).toFixed(3)}`,
      );
    }
  }
} finally {
  await server.stop();
  await against?.stop();
  await limit.stop();
  await found?.postgres.stop();
  rmSync(workdir, { recursive: true, force: true });
}

/**
 * The mix's parts against the mix: the reads of one half of the enrollments alone, the payments of the other half
 * alone, the two together (no read made stale), and the reads with their own half's payments (as in the mix).
 */
async function splitRounds(entries: MixEntry[], rounds: number, runOn: (requests: MixEntry[], name: string) => Promise<number>): Promise<void> {
  const tokens = [...new Set(entries.map((entry) => entry.authorization))];
  const first = new Set(tokens.slice(0, Math.floor(tokens.length / 2)));
  const reads = entries.filter((entry) => entry.kind !== 'payment' && first.has(entry.authorization));
  const ownPayments = entries.filter((entry) => entry.kind === 'payment' && first.has(entry.authorization));
  const otherPayments = entries.filter((entry) => entry.kind === 'payment' && !first.has(entry.authorization));
  const share = (payments: MixEntry[]) => payments.length / (reads.length + payments.length);
  const parts = (payments: MixEntry[], readsAlone: number, paymentsAlone: number) =>
    (1 - share(payments)) * readsAlone + share(payments) * paymentsAlone;
  for (let round = 0; round < rounds; round++) {
    const readsAlone = await runOn(reads, 'reads of one half');
    const paymentsAlone = await runOn(otherPayments, 'payments of the other half');
    const apart = await runOn([...reads, ...otherPayments], 'the two together');
    const same = await runOn([...reads, ...ownPayments], "the reads with their own half's payments");
    console.log(
      `round ${round + 1}: together ${apart.toFixed(1)} µs against ${parts(otherPayments, readsAlone, paymentsAlone).toFixed(1)} from the parts ` +
        `(${(100 * share(otherPayments)).toFixed(1)} % payments); with their own payments ${same.toFixed(1)} µs against ` +
        `${parts(ownPayments, readsAlone, paymentsAlone).toFixed(1)} (${(100 * share(ownPayments)).toFixed(1)} %)`,
    );
  }
}
