// 8. Memory under a read load: a minute of reads over many URLs (many enrollments, pages of many sizes), so that
// the read cache fills to its budget, while the server's RSS is sampled; the growth from before the load to its
// peak is judged. The read cache is as shipped; SANDBOX_READ_CACHE_MB, when set, is passed to the server.
// The server runs twice: on Node's defaults (judged), and with V8's young generation bounded by a flag an
// operator can set (NODE_OPTIONS), to show how much of the growth is the collector's sizing.
import { join } from 'node:path';
import type { HeapSpaceInfo } from 'node:v8';
import type { Context } from '../lib/context.ts';
import { enrollMany } from '../lib/enroll.ts';
import { failures, type LoadResult, load, loadCells } from '../lib/load.ts';
import { randomRead } from '../lib/mix.ts';
import { readCacheMb } from '../lib/options.ts';
import { type RssParts, readRss, readRssParts } from '../lib/proc.ts';
import type { Section, Table } from '../lib/report.ts';
import { spawnServer } from '../lib/server-target.ts';
import { fmtInt, fmtMb } from '../lib/stats.ts';
import { mixSize } from './integrators.ts';

const MAX_GROWTH = 100 * 1024 * 1024;
/** A semi-space of 8 MB: V8 otherwise sizes each of the two from the heap limit, up to 64 MB on this machine. */
const BOUNDED_YOUNG_GENERATION = '--max-semi-space-size=8';
/** The heap spaces worth showing: where the growth is. */
const SPACES = ['new_space', 'old_space', 'large_object_space', 'code_space'];

interface Snapshot {
  usage: NodeJS.MemoryUsage;
  parts: RssParts;
  spaces: HeapSpaceInfo[];
}

interface Measured {
  label: string;
  result: LoadResult;
  before: Snapshot;
  after: Snapshot;
  rssBefore: number;
  rssAfter: number;
  growth: number;
  timeline: [number, number][];
}

/** Seconds between the timeline's samples of RSS. */
const sampleEvery = (quick: boolean): number => (quick ? 1 : 10);

async function measure(ctx: Context, label: string, execArgv: string[], seconds: number): Promise<Measured> {
  const { options } = ctx;
  const every = sampleEvery(options.quick);
  const name = `memory-server${execArgv.length > 0 ? '-bounded' : ''}`;
  const server = await spawnServer(ctx, name, { databasePath: join(ctx.workdir, `${name}.sqlite`) }, execArgv);
  try {
    const { enrollments } = mixSize(options.quick);
    ctx.log(`memory (${label}): enrolling ${fmtInt(enrollments)} integrators`);
    const enrolled = await enrollMany(server.info.url, 'username', enrollments);
    const snapshot = async (): Promise<Snapshot> => ({
      usage: await server.call<NodeJS.MemoryUsage>('memory'),
      parts: readRssParts(server.pid),
      spaces: await server.call<HeapSpaceInfo[]>('heapSpaces'),
    });
    const before = await snapshot();
    const rssBefore = readRss(server.pid);
    const timeline: [number, number][] = [[0, rssBefore]];
    const started = performance.now();
    const sampler = setInterval(() => timeline.push([Math.round((performance.now() - started) / 1000), readRss(server.pid)]), every * 1000);
    ctx.log(`memory (${label}): ${seconds} s of reads over many URLs`);
    const result = await load({ url: server.info.url, setupRequest: randomRead(enrolled), connections: options.connections, seconds, pid: server.pid });
    clearInterval(sampler);
    const rssAfter = readRss(server.pid);
    const after = await snapshot();
    return { label, result, before, after, rssBefore, rssAfter, growth: Math.max(result.rssPeak, rssAfter) - rssBefore, timeline };
  } finally {
    await server.stop();
  }
}

function usageRows(run: Measured): string[][] {
  const row = (when: string, { usage, parts }: Snapshot) => [
    `${run.label}, ${when}`,
    fmtMb(usage.rss),
    fmtMb(parts.anonymous),
    fmtMb(parts.file),
    fmtMb(usage.heapUsed),
    fmtMb(usage.heapTotal),
    fmtMb(usage.external),
    fmtMb(usage.arrayBuffers),
  ];
  return [row('before', run.before), row('after', run.after)];
}

function spaceRows(run: Measured): string[][] {
  const size = (snapshot: Snapshot, space: string) => snapshot.spaces.find((entry) => entry.space_name === space);
  return SPACES.map((space) => {
    const before = size(run.before, space);
    const after = size(run.after, space);
    return [run.label, space, fmtMb(before?.space_size ?? 0), fmtMb(after?.space_size ?? 0), fmtMb(after?.space_used_size ?? 0)];
  });
}

export async function memory(ctx: Context): Promise<Section> {
  const { options } = ctx;
  const seconds = options.quick ? 5 : 60;
  const shipped = await measure(ctx, "Node's defaults", [], seconds);
  const bounded = await measure(ctx, BOUNDED_YOUNG_GENERATION, [BOUNDED_YOUNG_GENERATION], seconds);
  const runs = [shipped, bounded];
  const cacheMb = readCacheMb();
  const failed = runs.map((run) => failures(`the read load (${run.label})`, [run.result])).filter(Boolean) as string[];
  const tables: Table[] = [
    {
      headers: ['server', 'req/s', 'p50 ms', 'p99 ms', 'RSS peak MB', 'RSS before MB', 'RSS at the end MB', 'growth MB'],
      rows: runs.map((run) => [run.label, ...loadCells([run.result]), fmtMb(run.rssBefore), fmtMb(run.rssAfter), fmtMb(run.growth)]),
    },
    {
      caption: "Where the server's memory is (process.memoryUsage() and /proc, before and after the load)",
      headers: ['server, when', 'RSS MB', 'anonymous MB', 'file-backed MB', 'JS heap used MB', 'JS heap total MB', 'external MB', 'array buffers MB'],
      rows: runs.flatMap(usageRows),
    },
    {
      caption: "V8's heap spaces (v8.getHeapSpaceStatistics()): size before and after the load, used after it",
      headers: ['server', 'space', 'size before MB', 'size after MB', 'used after MB'],
      rows: runs.flatMap(spaceRows),
    },
    {
      caption: "RSS while the load runs (Node's defaults)",
      headers: ['second', 'RSS MB'],
      rows: shipped.timeline.map(([second, rss]) => [String(second), fmtMb(rss)]),
    },
  ];
  return {
    title: 'Memory under a read load',
    about: `${seconds} s of reads over many URLs (${fmtInt(mixSize(options.quick).enrollments)} enrollments; their accounts, an account, its balances, or a page of its transactions of 50 to 200), so that the read cache keeps taking new entries; the server's RSS before the load, while it runs and at its end. Measured on Node's defaults (judged), then again in a fresh server with \`${BOUNDED_YOUNG_GENERATION}\` (an operator's \`NODE_OPTIONS\`).`,
    tables,
    targets: [
      {
        name: `RSS growth over ${seconds} s of reads (peak − before)`,
        value: `${fmtMb(shipped.growth)} MB`,
        goal: '< 100 MB',
        met: shipped.growth < MAX_GROWTH,
      },
      {
        name: `RSS growth over ${seconds} s of reads with NODE_OPTIONS=${BOUNDED_YOUNG_GENERATION}`,
        value: `${fmtMb(bounded.growth)} MB`,
        goal: 'report',
        met: null,
      },
    ],
    notes: [
      ...failed,
      `Read cache as shipped${cacheMb ? `, SANDBOX_READ_CACHE_MB=${cacheMb}` : ' (its default budget, 64 MB)'}. ${runs.map((run) => `${run.label}: ${fmtInt(run.result.responses)} responses`).join('; ')}; ${options.connections} connections; RSS from /proc every 100 ms (peak) and every ${sampleEvery(options.quick)} s (the timeline).`,
    ],
  };
}
