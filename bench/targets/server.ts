// The server under test, in a child process: startServer on a SQLite file (or a PostgreSQL database), loopback
// only. Optionally enrolls sandbox users first (through the sandbox control API, as integrators do) and reports
// their tokens and accounts. SANDBOX_READ_CACHE_MB, when set in the bench's environment, sizes the read cache.
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { getHeapSpaceStatistics, writeHeapSnapshot } from 'node:v8';
import { memoryAfterCollection } from '@aggregation/test-support';
import pg from 'pg';
import { type Enrolled, enroll } from '../lib/enroll.ts';
import { readCacheMb } from '../lib/options.ts';
import { childArgs, serveParent } from '../lib/worker-side.ts';

export type { Enrolled } from '../lib/enroll.ts';

export interface ServerArgs {
  /** The SQLite file (unless databaseUrl names a PostgreSQL database). */
  databasePath?: string;
  databaseUrl?: string;
  /** Another copy of the server package's entry (src/index.ts), for before/after comparisons. */
  module?: string;
  /** Sandbox usernames to enroll before announcing readiness. */
  enroll?: string[];
  /** Start the webhook delivery worker (default true, as in production). */
  webhooks?: boolean;
  /** Delivery concurrency of the webhook worker (server default when absent). */
  webhookConcurrency?: number;
  /** Replay rendered reads (default true, as in production). */
  readCache?: boolean;
  /** Count the PostgreSQL statements the process sends, by their text (`statements` answers and resets the counts). */
  countStatements?: boolean;
}

/** Reads the read cache replayed (hits) and let through to the app (misses, kept or not) so far. */
export interface ReadCacheCounts {
  hits: number;
  misses: number;
}

export interface ServerInfo {
  url: string;
  pid: number;
  enrolled: Enrolled[];
  startSeconds: number;
}

const args = childArgs<ServerArgs>();
const statements = new Map<string, number>();
if (args.countStatements) countStatements(statements);
const { startServer } = (await import(args.module ?? '@aggregation/server')) as typeof import('@aggregation/server');
const cacheMb = readCacheMb();
const started = performance.now();
const running = await startServer({
  port: 0,
  hostname: '127.0.0.1',
  ...(args.databaseUrl ? { databaseUrl: args.databaseUrl } : { databasePath: args.databasePath }),
  // The history scenario seeds a million transactions, above the sandbox's default cap.
  maxHistory: 1_000_000,
  ...(args.readCache === false ? { readCache: false } : cacheMb ? { readCache: { maxBytes: cacheMb * 1024 * 1024 } } : {}),
  webhooks: {
    autostart: args.webhooks !== false,
    ...(args.webhookConcurrency ? { concurrency: args.webhookConcurrency } : {}),
  },
});
const startSeconds = (performance.now() - started) / 1000;

const enrolled: Enrolled[] = [];
for (const username of args.enroll ?? []) enrolled.push(await enroll(running.url, username));

serveParent(
  { url: running.url, pid: process.pid, enrolled, startSeconds } satisfies ServerInfo,
  {
    memory: () => process.memoryUsage(),
    // With --expose-gc: what the process keeps once everything unreachable is collected (test-support's measure); with
    // `1`, after one collection alone, whose `external` still counts the buffers it freed.
    keptMemory: (collections) => {
      if (collections !== 1) return memoryAfterCollection(collect());
      collect()();
      return process.memoryUsage();
    },
    // Written where asked (a heap snapshot collects first), for comparing what is kept across a load.
    heapSnapshot: (file) => writeHeapSnapshot(file as string),
    heapSpaces: () => getHeapSpaceStatistics(),
    readCache: () => ({ hits: running.app.readCache?.hits ?? 0, misses: running.app.readCache?.misses ?? 0 }),
    statements: () => {
      const counts = Object.fromEntries(statements);
      statements.clear();
      return counts;
    },
    profileStart: () => profiler.start(),
    profileStop: (file) => profiler.stop(file as string),
  },
  () => running.close(),
);

/** `gc` of --expose-gc. */
function collect(): () => void {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) throw new Error('the server target was started without --expose-gc');
  return gc;
}

/**
 * Counts every statement a pg client of this process is asked for, by its text (whitespace folded, cut at 72
 * characters); a query without text is the change feed's barrier (a lone Sync on its listening connection).
 */
function countStatements(counts: Map<string, number>): void {
  const query = pg.Client.prototype.query as (...args: unknown[]) => unknown;
  (pg.Client.prototype as { query: unknown }).query = function (this: pg.Client, config: unknown, ...rest: unknown[]) {
    const text = typeof config === 'string' ? config : (config as { text?: unknown } | undefined)?.text;
    const key = typeof text === 'string' ? text.replace(/\s+/g, ' ').trim().slice(0, 72) : 'barrier (Sync on the listening connection)';
    counts.set(key, (counts.get(key) ?? 0) + 1);
    return query.call(this, config, ...rest);
  };
}

/** A CPU profile of a stretch of the process's life (--cpu-prof covers all of it, start and seeding included). */
const profiler = {
  session: undefined as Session | undefined,
  async start(): Promise<void> {
    this.session = new Session();
    this.session.connect();
    await this.session.post('Profiler.enable');
    await this.session.post('Profiler.start');
  },
  async stop(file: string): Promise<void> {
    if (!this.session) throw new Error('no profile started');
    const { profile } = await this.session.post('Profiler.stop');
    writeFileSync(file, JSON.stringify(profile));
    this.session.disconnect();
    this.session = undefined;
  },
};
