// The server as the fault tests run it, in a process of its own (so that it can be killed): the
// server's own startServer on 127.0.0.1 and a free port, with webhook timings short enough for a
// test to see a delivery lost in a crash sent again (a lease of seconds, not the default minute).
//
// Environment: DATABASE_URL or DATABASE_PATH, RATE_LIMIT (requests per second per caller).
// Prints `Listening on <url>` once it serves; unexpected errors go to stderr.
import { startServer } from '@aggregation/server';

const rate = Number(process.env.RATE_LIMIT ?? 0);
const running = await startServer({
  port: 0,
  hostname: '127.0.0.1',
  ...(process.env.DATABASE_URL ? { databaseUrl: process.env.DATABASE_URL } : { databasePath: process.env.DATABASE_PATH ?? ':memory:' }),
  ...(rate > 0 ? { rateLimit: { perSecond: rate, burst: rate * 2 } } : {}),
  // The largest history the sandbox can make, so that the abuse probe of history.1000000 creates it.
  maxHistory: 1_000_000,
  webhooks: { pollMs: 100, timeoutMs: 2_000, leaseMs: 2_500, retry: { baseDelayMs: 200, maxDelayMs: 1_000 } },
  logError: (error) => console.error(`unexpected error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`),
});
console.log(`Listening on ${running.url}`);
process.on('SIGTERM', () => void running.close().then(() => process.exit(0)));
