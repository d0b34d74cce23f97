// The server as the fault tests run it, in a process of its own (so that it can be killed): the
// server's own startServer on 127.0.0.1 and a free port, with webhook timings short enough for a
// test to see a delivery lost in a crash sent again (a lease of seconds, not the default minute).
//
// Environment: DATABASE_URL or DATABASE_PATH, RATE_LIMIT (requests per second per caller),
// WEBHOOK_PRIVATE_TARGETS=off (the hosted sandbox's target policy), WEBHOOK_HOSTS (JSON: host name to
// the address the deliveries' resolver answers; other names are unknown), WEBHOOK_RETRY_BASE_MS and
// WEBHOOK_RETRY_MAX_MS (the backoff), WEBHOOK_RETRY_ATTEMPTS, WEBHOOK_TIMEOUT_MS (per attempt), TLS_KEY, TLS_CERT and TLS_CLIENT_CA (files, as `npm start` reads
// them), LIVE_ENROLLMENT=on (prints `Live token: <token>` of a live enrollment it makes),
// SANDBOX_READ_CACHE_MB (the read cache's budget), PUBLIC_URL (the base of links, one for every process
// behind a load balancer).
// Prints `Listening on <url>` once it serves; unexpected errors go to stderr.
import { readFileSync } from 'node:fs';
import { createEnrollment, startServer } from '@aggregation/server';
import { memoryAfterCollection } from '@aggregation/test-support';
import { stubResolver } from '../../server/test/helpers/resolver.ts';

const env = process.env;
const rate = Number(env.RATE_LIMIT ?? 0);
const file = (name: string | undefined) => (name ? readFileSync(name) : undefined);
const [key, cert, clientCa] = [file(env.TLS_KEY), file(env.TLS_CERT), file(env.TLS_CLIENT_CA)];
const timeoutMs = Number(env.WEBHOOK_TIMEOUT_MS ?? 2_000);
const running = await startServer({
  port: 0,
  hostname: '127.0.0.1',
  ...(env.DATABASE_URL ? { databaseUrl: env.DATABASE_URL } : { databasePath: env.DATABASE_PATH ?? ':memory:' }),
  ...(rate > 0 ? { rateLimit: { perSecond: rate, burst: rate * 2 } } : {}),
  ...(key && cert ? { tls: { key, cert, ...(clientCa ? { clientCa } : {}) } } : {}),
  ...(env.SANDBOX_READ_CACHE_MB ? { readCache: { maxBytes: Number(env.SANDBOX_READ_CACHE_MB) * 1024 * 1024 } } : {}),
  ...(env.PUBLIC_URL ? { publicUrl: env.PUBLIC_URL } : {}),
  webhookTargets: { allowPrivate: env.WEBHOOK_PRIVATE_TARGETS !== 'off' },
  // The largest history the sandbox can make, so that the abuse probe of history.1000000 creates it.
  maxHistory: 1_000_000,
  webhooks: {
    pollMs: 100,
    timeoutMs,
    leaseMs: timeoutMs + 500,
    retry: {
      baseDelayMs: Number(env.WEBHOOK_RETRY_BASE_MS ?? 200),
      maxDelayMs: Number(env.WEBHOOK_RETRY_MAX_MS ?? 1_000),
      ...(env.WEBHOOK_RETRY_ATTEMPTS ? { maxAttempts: Number(env.WEBHOOK_RETRY_ATTEMPTS) } : {}),
    },
    ...(env.WEBHOOK_HOSTS ? { lookup: stubResolver(JSON.parse(env.WEBHOOK_HOSTS)) } : {}),
  },
  logError: (error) => console.error(`unexpected error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`),
});
if (env.LIVE_ENROLLMENT === 'on') {
  // Live enrollments have no control API: made directly, as the server's own tests make them.
  const live = await createEnrollment(running.app.runtime.deps, { username: 'username', password: 'password', mode: 'live' });
  console.log(`Live token: ${live.token}`);
}
// With --expose-gc, SIGUSR2 prints what stays in memory after a full collection: `Memory: <process.memoryUsage()>`.
const collect = (globalThis as { gc?: () => void }).gc;
if (collect) process.on('SIGUSR2', () => console.log(`Memory: ${JSON.stringify(memoryAfterCollection(collect))}`));
console.log(`Listening on ${running.url}`);
process.on('SIGTERM', () => void running.close().then(() => process.exit(0)));
