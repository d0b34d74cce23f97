// 8. Memory under a read load: a minute of reads over many URLs (many enrollments, pages of many sizes), so that
// the read cache fills to its budget, while the server's RSS is sampled; its peak is judged against a small
// container's 256 MB. The server runs as people run it: `npm start`, then the `aggregation-sandbox` bin, each
// with its own V8 settings (packages/server/src/v8-flags.ts) and the read cache as shipped (SANDBOX_READ_CACHE_MB,
// when set, passed on).
import { join } from 'node:path';
import { type RssParts, readRss, readRssParts } from '@aggregation/test-support';
import { type CommandServer, type StartedAs, startCommandServer } from '../lib/command-server.ts';
import type { Context } from '../lib/context.ts';
import { enrollMany } from '../lib/enroll.ts';
import { failures, type LoadResult, load, loadCells } from '../lib/load.ts';
import { randomRead } from '../lib/mix.ts';
import { readCacheMb } from '../lib/options.ts';
import type { Section, Table } from '../lib/report.ts';
import { fmtInt, fmtMb } from '../lib/stats.ts';
import { mixSize } from './integrators.ts';

const MB = 1024 * 1024;
/** A small container: the server's peak RSS, read cache included, must fit. */
const MAX_PEAK = 256 * MB;
const MAX_GROWTH = 100 * MB;
const WAYS: StartedAs[] = ['npm start', 'aggregation-sandbox bin'];

interface Measured {
  as: StartedAs;
  commandLine: string;
  result: LoadResult;
  before: RssParts;
  after: RssParts;
  rssBefore: number;
  rssAfter: number;
  peak: number;
  timeline: [number, number][];
}

/** Seconds between the timeline's samples of RSS. */
const sampleEvery = (quick: boolean): number => (quick ? 1 : 10);

async function measure(ctx: Context, as: StartedAs, seconds: number): Promise<Measured> {
  const { options } = ctx;
  const every = sampleEvery(options.quick);
  const server: CommandServer = await startCommandServer(as, join(ctx.workdir, `memory-${as.replace(/\W+/g, '-')}.sqlite`));
  try {
    const { enrollments } = mixSize(options.quick);
    ctx.log(`memory (${as}): enrolling ${fmtInt(enrollments)} integrators`);
    const enrolled = await enrollMany(server.url, 'username', enrollments);
    const before = readRssParts(server.pid);
    const rssBefore = readRss(server.pid);
    const timeline: [number, number][] = [[0, rssBefore]];
    const started = performance.now();
    const sampler = setInterval(() => timeline.push([Math.round((performance.now() - started) / 1000), readRss(server.pid)]), every * 1000);
    ctx.log(`memory (${as}): ${seconds} s of reads over many URLs`);
    const result = await load({ url: server.url, setupRequest: randomRead(enrolled), connections: options.connections, seconds, pid: server.pid });
    clearInterval(sampler);
    const rssAfter = readRss(server.pid);
    const after = readRssParts(server.pid);
    const peak = Math.max(result.rssPeak, rssAfter, ...timeline.map(([, rss]) => rss));
    return { as, commandLine: server.commandLine, result, before, after, rssBefore, rssAfter, peak, timeline };
  } finally {
    await server.stop();
  }
}

export async function memory(ctx: Context): Promise<Section> {
  const { options } = ctx;
  const seconds = options.quick ? 5 : 60;
  const runs: Measured[] = [];
  for (const as of WAYS) runs.push(await measure(ctx, as, seconds));
  const cacheMb = readCacheMb();
  const failed = runs.map((run) => failures(`the read load (${run.as})`, [run.result])).filter(Boolean) as string[];
  const worst = runs.reduce((a, b) => (b.peak > a.peak ? b : a));
  const started = runs[0]!;
  const tables: Table[] = [
    {
      headers: ['server', 'req/s', 'p50 ms', 'p99 ms', 'RSS peak MB (load)', 'RSS before MB', 'RSS peak MB', 'RSS at the end MB', 'growth MB'],
      rows: runs.map((run) => [
        run.as,
        ...loadCells([run.result]),
        fmtMb(run.rssBefore),
        fmtMb(run.peak),
        fmtMb(run.rssAfter),
        fmtMb(run.peak - run.rssBefore),
      ]),
    },
    {
      caption: "Where the server's memory is (/proc/<pid>/status, before and after the load)",
      headers: ['server, when', 'RSS MB', 'anonymous MB', 'file-backed MB', 'shared MB'],
      rows: runs.flatMap((run) =>
        (
          [
            ['before', run.before],
            ['after', run.after],
          ] as const
        ).map(([when, parts]) => [
          `${run.as}, ${when}`,
          fmtMb(parts.anonymous + parts.file + parts.shared),
          fmtMb(parts.anonymous),
          fmtMb(parts.file),
          fmtMb(parts.shared),
        ]),
      ),
    },
    {
      caption: `RSS while the load runs (${started.as})`,
      headers: ['second', 'RSS MB'],
      rows: started.timeline.map(([second, rss]) => [String(second), fmtMb(rss)]),
    },
  ];
  return {
    title: 'Memory under a read load',
    about: `${seconds} s of reads over many URLs (${fmtInt(mixSize(options.quick).enrollments)} enrollments; their accounts, an account, its balances, or a page of its transactions of 50 to 200), so that the read cache keeps taking new entries; the server's RSS before the load, while it runs (its peak) and at its end. The server runs as \`npm start\` runs it and as the \`aggregation-sandbox\` bin (\`dist/bin.js\`), each in a process with the server's V8 settings.`,
    tables,
    targets: [
      {
        name: 'RSS peak over 60 s of reads',
        value: `${fmtMb(worst.peak)} MB (${runs.map((run) => `${run.as} ${fmtMb(run.peak)}`).join(', ')})${options.quick ? `; ${seconds} s in quick mode` : ''}`,
        goal: '≤ 256 MB',
        met: worst.peak <= MAX_PEAK,
      },
      {
        name: `RSS growth over ${seconds} s of reads (peak − before), npm start`,
        value: `${fmtMb(started.peak - started.rssBefore)} MB`,
        goal: '< 100 MB',
        met: started.peak - started.rssBefore < MAX_GROWTH,
      },
    ],
    notes: [
      ...failed,
      `Read cache as shipped${cacheMb ? `, SANDBOX_READ_CACHE_MB=${cacheMb}` : ' (its default budget)'}. ${runs.map((run) => `${run.as}: ${fmtInt(run.result.responses)} responses, the serving process \`${run.commandLine.replace(/^\S*\//, '')}\``).join('; ')}; ${options.connections} connections; RSS from /proc every 100 ms (peak) and every ${sampleEvery(options.quick)} s (the timeline).`,
    ],
  };
}
