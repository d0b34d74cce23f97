// Starts the server with the sandbox enabled on a SQLite file (or PostgreSQL with
// DATABASE_URL), and prints a ready sandbox token with a curl line that works as printed.
//
// Environment: PORT (3000), HOST (127.0.0.1; 0.0.0.0 in a container), DATABASE_PATH (./data/sandbox.sqlite),
// DATABASE_URL (postgres://...: PostgreSQL, shared by several server processes),
// DEFAULT_VERSION (the current version), PUBLIC_URL (base of links; default from each request),
// TLS_KEY / TLS_CERT / TLS_CLIENT_CA (files; HTTPS, and live tokens need a client
// certificate signed by the client CA), SANDBOX=off to disable the sandbox control API,
// RATE_LIMIT (requests per second per caller, bursts of twice that; none by default),
// ACCESS_LOG=off to silence the one-line-per-request log, READ_CACHE=off to render every read,
// SANDBOX_READ_CACHE_MB (48; the read cache's memory budget),
// SANDBOX_MAX_HISTORY (largest n of the history.<n> users; 100000); for a hosted sandbox
// SANDBOX_HOSTED=on and the settings of settings.ts (see the README).
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { startServer, type TlsOptions } from './server.ts';
import { hostedSettingsFromEnv, readCacheFromEnv } from './settings.ts';
import { describeStorage } from './storage/index.ts';

function tlsFromEnv(): TlsOptions | undefined {
  const { TLS_KEY, TLS_CERT, TLS_CLIENT_CA } = process.env;
  if (!TLS_KEY || !TLS_CERT) return undefined;
  return {
    key: readFileSync(TLS_KEY),
    cert: readFileSync(TLS_CERT),
    ...(TLS_CLIENT_CA ? { clientCa: readFileSync(TLS_CLIENT_CA) } : {}),
  };
}

const databaseUrl = process.env.DATABASE_URL || undefined;
const databasePath = resolve(process.env.DATABASE_PATH ?? './data/sandbox.sqlite');
const sandbox = process.env.SANDBOX !== 'off';
const tls = tlsFromEnv();
const rate = Number(process.env.RATE_LIMIT ?? 0);
const maxHistory = Number(process.env.SANDBOX_MAX_HISTORY ?? 0);
const hosted = hostedSettingsFromEnv(process.env);
const port = Number(process.env.PORT ?? 3000);
const running = await startServer({
  port,
  hostname: process.env.HOST || '127.0.0.1',
  ...hosted,
  ...(databaseUrl ? { databaseUrl } : { databasePath }),
  sandbox,
  ...(process.env.DEFAULT_VERSION ? { defaultVersion: process.env.DEFAULT_VERSION } : {}),
  ...(process.env.PUBLIC_URL ? { publicUrl: process.env.PUBLIC_URL } : {}),
  ...(tls ? { tls } : {}),
  ...(rate > 0 ? { rateLimit: { perSecond: rate, burst: rate * 2 } } : {}),
  ...(process.env.ACCESS_LOG === 'off' ? {} : { accessLog: (line: string) => console.log(line) }),
  readCache: readCacheFromEnv(process.env),
  ...(maxHistory > 0 ? { maxHistory } : {}),
}).catch((error: NodeJS.ErrnoException) => {
  // The one common way the start fails: say so in a line, not a stack trace.
  if (error.code !== 'EADDRINUSE') throw error;
  console.error(`Port ${port} is already in use (another npm start?). Stop that server, or choose another port: PORT=${port + 1} npm start`);
  process.exit(1);
});

// The default address is printed as localhost, as links and curl lines have always read.
const url = process.env.HOST ? running.url : running.url.replace('//127.0.0.1:', '//localhost:');
console.log(`Listening on ${url} (database: ${describeStorage({ path: databasePath, url: databaseUrl })})`);
if (sandbox && !hosted.defaultApplication) {
  console.log(`\nHosted sandbox: create an application, then enroll with its key:\n  curl -X POST ${url}/sandbox/applications\n`);
} else if (sandbox) {
  // Enrolls the sandbox user `username` through the control API, as an integrator would.
  const response = await running.app.request(`${running.url}/sandbox/enrollments`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'username', password: 'password' }),
  });
  const created = (await response.json()) as { access_token: string };
  console.log(`\nSandbox access token: ${created.access_token}`);
  console.log(`Try it:\n  curl ${tls ? '-k ' : ''}-u ${created.access_token}: ${url}/accounts\n`);
}

let stopping = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    console.log(`\n${signal}: finishing requests in flight, then stopping.`);
    running.close().then(
      () => process.exit(0),
      (error: unknown) => {
        console.error(error);
        process.exit(1);
      },
    );
  });
}
