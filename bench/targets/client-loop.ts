// The typed client against raw fetch, one call at a time, on the same server running in this process: over
// loopback HTTP (the platform fetch against the server listening on 127.0.0.1, as shipped) and without a network
// (the app's own `fetch`). Only the client's own work differs between a raw call and a typed one.
import { createClient } from '@aggregation/client';
import { checkingAccount } from '../lib/enroll.ts';
import { childArgs, serveParent } from '../lib/worker-side.ts';

export interface ClientLoopArgs {
  databasePath: string;
  module?: string;
}

export type Transport = 'http' | 'app';
export type Operation = 'accounts' | 'transactions';
export type Caller = 'raw' | 'client' | 'client, no retry or timeout';
export interface Variant {
  transport: Transport;
  operation: Operation;
  caller: Caller;
}

export interface LoopResult {
  calls: number;
  /** Wall-clock and process CPU (all threads: the collector's included) per call, in microseconds. */
  wallMicros: number;
  cpuMicros: number;
}

const args = childArgs<ClientLoopArgs>();
const { startServer } = (await import(args.module ?? '@aggregation/server')) as typeof import('@aggregation/server');
const running = await startServer({ port: 0, hostname: '127.0.0.1', databasePath: args.databasePath, webhooks: { autostart: false } });
const enrolled = await fetch(`${running.url}/sandbox/enrollments`, {
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ username: 'username', password: 'password' }),
});
const { access_token: token, accounts } = (await enrolled.json()) as { access_token: string; accounts: { id: string; subtype: string }[] };
const accountId = checkingAccount(accounts).id;
const authorization = `Basic ${Buffer.from(`${token}:`).toString('base64')}`;
const paths: Record<Operation, string> = { accounts: '/accounts', transactions: `/accounts/${accountId}/transactions?count=100` };

const appFetch = (request: Request) => running.app.fetch(request);
const transports: Record<Transport, { base: string; raw: (url: string) => Promise<Response> }> = {
  http: { base: running.url, raw: (url) => fetch(url, { headers: { authorization } }) },
  app: { base: 'http://bench.local', raw: (url) => Promise.resolve(running.app.fetch(new Request(url, { headers: { authorization } }))) },
};

function callsOf(transport: Transport): Record<Caller, Record<Operation, () => Promise<unknown>>> {
  const { base, raw } = transports[transport];
  const fetchOption = transport === 'app' ? { fetch: appFetch } : {};
  const client = createClient({ token, baseUrl: base, ...fetchOption });
  // Without the retry wrapper and the per-attempt timeout: shows their share.
  const plain = createClient({ token, baseUrl: base, ...fetchOption, retry: false, timeoutMs: 0 });
  const rawCall = (path: string) => async () => {
    const response = await raw(base + path);
    if (!response.ok) throw new Error(`${path}: ${response.status}`);
    return response.json();
  };
  return {
    raw: { accounts: rawCall(paths.accounts), transactions: rawCall(paths.transactions) },
    client: { accounts: () => client.accounts.list(), transactions: () => client.transactions.list(accountId, { count: 100 }) },
    'client, no retry or timeout': { accounts: () => plain.accounts.list(), transactions: () => plain.transactions.list(accountId, { count: 100 }) },
  };
}
const calls = { http: callsOf('http'), app: callsOf('app') };

serveParent(
  { pid: process.pid },
  {
    run: async (payload): Promise<LoopResult> => {
      const { variant, seconds } = payload as { variant: Variant; seconds: number };
      const call = calls[variant.transport][variant.caller][variant.operation];
      const until = performance.now() + seconds * 1000;
      const started = performance.now();
      const cpu = process.cpuUsage();
      let count = 0;
      while (performance.now() < until) {
        for (let i = 0; i < 20; i++) await call();
        count += 20;
      }
      const used = process.cpuUsage(cpu);
      return { calls: count, wallMicros: ((performance.now() - started) * 1000) / count, cpuMicros: (used.user + used.system) / count };
    },
  },
  () => running.close(),
);
