// The server under test, in a child process: startServer on a SQLite file (or a PostgreSQL database), loopback
// only. Optionally enrolls sandbox users first (through the sandbox control API, as integrators do) and reports
// their tokens and accounts. SANDBOX_READ_CACHE_MB, when set in the bench's environment, sizes the read cache.
import { getHeapSpaceStatistics } from 'node:v8';
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
    heapSpaces: () => getHeapSpaceStatistics(),
    readCache: () => ({ hits: running.app.readCache?.hits ?? 0, misses: running.app.readCache?.misses ?? 0 }),
  },
  () => running.close(),
);
