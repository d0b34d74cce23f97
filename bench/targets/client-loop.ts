// The typed client against raw fetch, both calling the same in-process app (app.fetch, no
// network), one call at a time. Only the client's own work differs between the two.
import { createClient } from '@aggregation/client';
import { childArgs, serveParent } from '../lib/worker-side.ts';

export interface ClientLoopArgs {
  databasePath: string;
  module?: string;
}

export type Variant = 'raw accounts' | 'client accounts' | 'client accounts, no retry or timeout' | 'raw transactions' | 'client transactions';

const args = childArgs<ClientLoopArgs>();
const { createApp } = (await import(args.module ?? '@aggregation/server')) as typeof import('@aggregation/server');
const app = createApp({ databasePath: args.databasePath, webhooks: { autostart: false } });
const base = 'http://bench.local';
const enrolled = await app.fetch(
  new Request(`${base}/sandbox/enrollments`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'username', password: 'password' }),
  }),
);
const { access_token: token, accounts } = (await enrolled.json()) as { access_token: string; accounts: { id: string; subtype: string }[] };
const accountId = (accounts.find((a) => a.subtype === 'checking') ?? accounts[0]!).id;
const authorization = `Basic ${Buffer.from(`${token}:`).toString('base64')}`;
const client = createClient({ token, baseUrl: base, fetch: (request) => app.fetch(request) });
// Without the retry wrapper's clone and the per-attempt timeout signal: shows their share.
const plain = createClient({ token, baseUrl: base, fetch: (request) => app.fetch(request), retry: false, timeoutMs: 0 });

async function raw(path: string): Promise<unknown> {
  const response = await app.fetch(new Request(base + path, { headers: { authorization } }));
  if (!response.ok) throw new Error(`${path}: ${response.status}`);
  return response.json();
}

const calls: Record<Variant, () => Promise<unknown>> = {
  'raw accounts': () => raw('/accounts'),
  'client accounts': () => client.accounts.list(),
  'client accounts, no retry or timeout': () => plain.accounts.list(),
  'raw transactions': () => raw(`/accounts/${accountId}/transactions?count=100`),
  'client transactions': () => client.transactions.list(accountId, { count: 100 }),
};

serveParent({ pid: process.pid }, {
  run: async (payload) => {
    const { variant, seconds } = payload as { variant: Variant; seconds: number };
    const call = calls[variant];
    const until = performance.now() + seconds * 1000;
    const started = performance.now();
    let count = 0;
    while (performance.now() < until) {
      for (let i = 0; i < 20; i++) await call();
      count += 20;
    }
    return { calls: count, seconds: (performance.now() - started) / 1000 };
  },
}, () => app.close());
