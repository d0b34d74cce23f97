// The server under test, in a child process: startServer on a SQLite file, loopback only.
// Optionally enrolls sandbox users first (through the sandbox control API, as integrators do)
// and reports their tokens and accounts.
import { childArgs, serveParent } from '../lib/worker-side.ts';

export interface ServerArgs {
  databasePath: string;
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

export interface Enrolled {
  username: string;
  token: string;
  authorization: string;
  accounts: { id: string; subtype: string; links: Record<string, string> }[];
  seconds: number;
}

export interface ServerInfo {
  url: string;
  pid: number;
  enrolled: Enrolled[];
  startSeconds: number;
}

const args = childArgs<ServerArgs>();
const { startServer } = (await import(args.module ?? '@aggregation/server')) as typeof import('@aggregation/server');
const started = performance.now();
const running = await startServer({
  port: 0,
  hostname: '127.0.0.1',
  databasePath: args.databasePath,
  // The history scenario seeds a million transactions, above the sandbox's default cap.
  maxHistory: 1_000_000,
  ...(args.readCache === false ? { readCache: false } : {}),
  webhooks: {
    autostart: args.webhooks !== false,
    ...(args.webhookConcurrency ? { concurrency: args.webhookConcurrency } : {}),
  },
});
const startSeconds = (performance.now() - started) / 1000;

const enrolled: Enrolled[] = [];
for (const username of args.enroll ?? []) {
  const t0 = performance.now();
  const response = await fetch(`${running.url}/sandbox/enrollments`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username, password: 'password' }),
  });
  if (response.status !== 201) throw new Error(`enrolling ${username}: ${response.status} ${await response.text()}`);
  const body = (await response.json()) as { access_token: string; accounts: Enrolled['accounts'] };
  enrolled.push({
    username,
    token: body.access_token,
    authorization: `Basic ${Buffer.from(`${body.access_token}:`).toString('base64')}`,
    accounts: body.accounts,
    seconds: (performance.now() - t0) / 1000,
  });
}

serveParent(
  { url: running.url, pid: process.pid, enrolled, startSeconds } satisfies ServerInfo,
  {
    memory: () => process.memoryUsage(),
  },
  () => running.close(),
);
