// 8. Memory under a read load: a minute of reads over many URLs (many enrollments, pages of many sizes), so that
// the read cache fills to its budget, while the server's RSS is sampled; the growth from before the load to its
// peak is judged. The read cache is as shipped; SANDBOX_READ_CACHE_MB, when set, is passed to the server.
import { join } from 'node:path';
import type { Context } from '../lib/context.ts';
import { enrollMany } from '../lib/enroll.ts';
import { failures, load, loadCells } from '../lib/load.ts';
import { randomRead } from '../lib/mix.ts';
import { readCacheMb } from '../lib/options.ts';
import { readRss } from '../lib/proc.ts';
import type { Section } from '../lib/report.ts';
import { spawnServer } from '../lib/server-target.ts';
import { fmtInt, fmtMb } from '../lib/stats.ts';
import { mixSize } from './integrators.ts';

const MAX_GROWTH = 100 * 1024 * 1024;

const usageRow = (when: string, usage: NodeJS.MemoryUsage): string[] => [
  when,
  fmtMb(usage.rss),
  fmtMb(usage.heapUsed),
  fmtMb(usage.heapTotal),
  fmtMb(usage.external),
  fmtMb(usage.arrayBuffers),
];

export async function memory(ctx: Context): Promise<Section> {
  const { options } = ctx;
  const seconds = options.quick ? 5 : 60;
  const every = options.quick ? 1 : 10;
  const server = await spawnServer(ctx, 'memory-server', { databasePath: join(ctx.workdir, 'memory.sqlite') });
  try {
    const { enrollments } = mixSize(options.quick);
    ctx.log(`memory: enrolling ${fmtInt(enrollments)} integrators`);
    const enrolled = await enrollMany(server.info.url, 'username', enrollments);
    const heapBefore = await server.call<NodeJS.MemoryUsage>('memory');
    const before = readRss(server.pid);
    const timeline: [number, number][] = [[0, before]];
    const started = performance.now();
    const sampler = setInterval(() => timeline.push([Math.round((performance.now() - started) / 1000), readRss(server.pid)]), every * 1000);
    ctx.log(`memory: ${seconds} s of reads over many URLs`);
    const result = await load({
      url: server.info.url,
      setupRequest: randomRead(enrolled),
      connections: options.connections,
      seconds,
      pid: server.pid,
    });
    clearInterval(sampler);
    const after = readRss(server.pid);
    const heapAfter = await server.call<NodeJS.MemoryUsage>('memory');
    const growth = Math.max(result.rssPeak, after) - before;
    const cacheMb = readCacheMb();
    const failed = failures('the read load', [result]);
    return {
      title: 'Memory under a read load',
      about: `${seconds} s of reads over many URLs (${fmtInt(enrollments)} enrollments; their accounts, an account, its balances, or a page of its transactions of 50 to 200), so that the read cache keeps taking new entries; the server's RSS before the load, while it runs and at its end.`,
      tables: [
        {
          headers: ['req/s', 'p50 ms', 'p99 ms', 'RSS peak MB', 'RSS before MB', 'RSS at the end MB', 'growth MB'],
          rows: [[...loadCells([result]), fmtMb(before), fmtMb(after), fmtMb(growth)]],
        },
        {
          caption: "Where the server's memory is (process.memoryUsage(), before and after the load)",
          headers: ['when', 'RSS MB', 'JS heap used MB', 'JS heap total MB', 'external MB', 'array buffers MB'],
          rows: [usageRow('before', heapBefore), usageRow('after', heapAfter)],
        },
        { caption: 'RSS while the load runs', headers: ['second', 'RSS MB'], rows: timeline.map(([second, rss]) => [String(second), fmtMb(rss)]) },
      ],
      targets: [
        { name: `RSS growth over ${seconds} s of reads (peak − before)`, value: `${fmtMb(growth)} MB`, goal: '< 100 MB', met: growth < MAX_GROWTH },
      ],
      notes: [
        ...(failed ? [failed] : []),
        `Read cache as shipped${cacheMb ? `, SANDBOX_READ_CACHE_MB=${cacheMb}` : ' (its default budget)'}. ${fmtInt(result.responses)} responses, ${options.connections} connections; RSS from /proc every 100 ms (peak) and every ${every} s (the timeline).`,
      ],
    };
  } finally {
    await server.stop();
  }
}
