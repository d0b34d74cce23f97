// What a server keeps across a load, round after round: the fault suite's memory load (every page of a history read
// once, over a small read cache) or the many-integrators mix, on PostgreSQL or SQLite. After each round the server
// (started with --expose-gc) reports its memory after one full collection and after a second one (the second finalizes
// the sweep of the buffers the first freed, which `external` still counts: test-support's `memoryAfterCollection`),
// and with --snapshots writes heap snapshots after the warm-up and after the last round, compared by constructor.
// Usage (from the repository root, after `npx turbo run build --filter=@aggregation/server...`):
//   node bench/tools/kept-memory.ts [--sqlite] [--load=pages|mix] [--rounds=4] [--reads=1500] [--cache-mb=4]
//     [--snapshots] [--node-flags='--no-concurrent-array-buffer-sweeping'] [--module=<build>/index.js]
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { readRss } from '@aggregation/test-support';
import pMap from 'p-map';
import { spawnChild } from '../lib/child.ts';
import { checkingAccount, enrollMany } from '../lib/enroll.ts';
import { expectStatus } from '../lib/http.ts';
import { load } from '../lib/load.ts';
import { drawMix, mixRequest } from '../lib/mix.ts';
import { benchPostgres } from '../lib/postgres.ts';
import type { ServerArgs, ServerInfo } from '../targets/server.ts';

const { values } = parseArgs({
  options: {
    sqlite: { type: 'boolean', default: false },
    load: { type: 'string', default: 'pages' },
    rounds: { type: 'string', default: '4' },
    reads: { type: 'string', default: '1500' },
    seconds: { type: 'string', default: '20' },
    'cache-mb': { type: 'string', default: '4' },
    snapshots: { type: 'boolean', default: false },
    'node-flags': { type: 'string', default: '' },
    module: { type: 'string' },
  },
});
if (!['pages', 'mix'].includes(values.load)) throw new Error("--load is pages (the fault suite's distinct pages) or mix");

const MB = (bytes: number) => (bytes / 2 ** 20).toFixed(1);
const workdir = mkdtempSync(join(tmpdir(), 'aggregation-kept-memory-'));
const found = values.sqlite ? undefined : await benchPostgres();
if (found && 'skip' in found) throw new Error(`no PostgreSQL: ${found.skip}`);
const databaseUrl = found ? await found.postgres.database() : undefined;
const server = await spawnChild<ServerInfo>(
  new URL('../targets/server.ts', import.meta.url),
  {
    ...(databaseUrl ? { databaseUrl } : { databasePath: join(workdir, 'kept.sqlite') }),
    enroll: values.load === 'pages' ? ['history.1000'] : [],
    ...(values.module ? { module: resolve(values.module) } : {}),
  } satisfies ServerArgs,
  { execArgv: ['--expose-gc', ...values['node-flags'].split(' ').filter(Boolean)], env: { SANDBOX_READ_CACHE_MB: values['cache-mb'] } },
);

/** One round of the load: the next `reads` distinct pages (8 readers, as the fault suite), or `seconds` of the mix. */
async function roundOf(): Promise<(round: number) => Promise<string>> {
  if (values.load === 'mix') {
    const enrolled = await enrollMany(server.info.url, 'username', 1000);
    const entries = await drawMix(server.info.url, enrolled, 2000);
    return async () => {
      const result = await load({
        url: server.info.url,
        connections: 10,
        seconds: Number(values.seconds),
        pid: server.pid,
        setupRequest: mixRequest(entries),
      });
      return `${Math.round(result.rps * result.seconds)} requests of the mix`;
    };
  }
  const enrolled = server.info.enrolled[0]!;
  const account = checkingAccount(enrolled.accounts).id;
  const headers = { authorization: enrolled.authorization };
  const history = await expectStatus(`${server.info.url}/accounts/${account}/transactions?count=10000`, { headers }, 200);
  const ids = (JSON.parse(Buffer.from(history.body).toString()) as { id: string }[]).map((t) => t.id);
  const urls = [100, 99, 98, 97].flatMap((count) =>
    ids.map((id) => `${server.info.url}/accounts/${account}/transactions?count=${count}&from_id=${id}`),
  );
  let next = 0;
  return async (round) => {
    const count = round === 0 ? 100 : Number(values.reads);
    const list = Array.from({ length: count }, () => urls[next++ % urls.length]!);
    let bytes = 0;
    await pMap(
      list,
      async (url) => {
        const { body } = await expectStatus(url, { headers }, 200);
        bytes += body.byteLength;
      },
      { concurrency: 8 },
    );
    return `${count} distinct pages, ${MB(bytes)} MB served`;
  };
}

/** Self size and count per constructor (object nodes) or node type, from a heap snapshot file. */
function constructors(file: string): Map<string, { count: number; bytes: number }> {
  const snapshot = JSON.parse(readFileSync(file, 'utf8')) as {
    snapshot: { meta: { node_fields: string[]; node_types: [string[]] } };
    nodes: number[];
    strings: string[];
  };
  const fields = snapshot.snapshot.meta.node_fields;
  const types = snapshot.snapshot.meta.node_types[0];
  const [typeAt, nameAt, sizeAt] = ['type', 'name', 'self_size'].map((f) => fields.indexOf(f)) as [number, number, number];
  const totals = new Map<string, { count: number; bytes: number }>();
  for (let i = 0; i < snapshot.nodes.length; i += fields.length) {
    const type = types[snapshot.nodes[i + typeAt]!]!;
    const key = type === 'object' || type === 'closure' ? snapshot.strings[snapshot.nodes[i + nameAt]!]! : `(${type})`;
    const total = totals.get(key) ?? { count: 0, bytes: 0 };
    total.count += 1;
    total.bytes += snapshot.nodes[i + sizeAt]!;
    totals.set(key, total);
  }
  return totals;
}

try {
  const round = await roundOf();
  console.log(`server on ${databaseUrl ? 'PostgreSQL' : 'SQLite'}, read cache ${values['cache-mb']} MiB, load: ${values.load}`);
  console.log(
    `${'round'.padEnd(6)} ${'load'.padEnd(38)} | after 1 collection, MB: ${'external'.padStart(8)} ${'arrayBuffers'.padStart(12)} ${'heapUsed'.padStart(8)} | after 2: ${'external'.padStart(8)} ${'kept'.padStart(6)} | ${'RSS'.padStart(6)}`,
  );
  const snapshots: string[] = [];
  const rounds = Number(values.rounds);
  for (let r = 0; r <= rounds; r++) {
    const what = await round(r);
    // One collection, read at once (what the fault suite read before it collected twice), then a second.
    const once = await server.call<NodeJS.MemoryUsage>('keptMemory', 1);
    const twice = await server.call<NodeJS.MemoryUsage>('keptMemory');
    console.log(
      `${(r === 0 ? 'warm' : String(r)).padEnd(6)} ${what.padEnd(38)} | ${''.padEnd(24)} ${MB(once.external).padStart(8)} ${MB(once.arrayBuffers).padStart(12)} ` +
        `${MB(once.heapUsed).padStart(8)} | ${''.padEnd(8)} ${MB(twice.external).padStart(8)} ${MB(twice.heapUsed + twice.external).padStart(6)} | ${MB(readRss(server.pid)).padStart(6)}`,
    );
    if (values.snapshots && (r === 0 || r === rounds))
      snapshots.push(await server.call<string>('heapSnapshot', join(workdir, `round-${r}.heapsnapshot`)));
  }
  if (snapshots.length === 2) {
    const [first, last] = snapshots.map(constructors) as [ReturnType<typeof constructors>, ReturnType<typeof constructors>];
    const grown = [...last]
      .map(([name, after]) => ({ name, after, bytes: after.bytes - (first.get(name)?.bytes ?? 0), count: after.count - (first.get(name)?.count ?? 0) }))
      .sort((a, b) => b.bytes - a.bytes)
      .slice(0, 25);
    console.log('\nheap snapshots, after the warm-up → after the last round, by constructor (largest growth first):');
    for (const g of grown)
      console.log(`  ${(g.bytes / 1024).toFixed(0).padStart(8)} KiB  ${String(g.count).padStart(7)} objects  ${g.name.slice(0, 70)}`);
  }
} finally {
  await server.stop();
  await found?.postgres.stop();
  rmSync(workdir, { recursive: true, force: true });
}
