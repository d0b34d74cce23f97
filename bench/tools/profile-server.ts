// Profiles the server under one workload: starts it in a child with --cpu-prof on a fresh
// SQLite file, enrolls the sandbox user `username`, loads it for a while, stops it and prints
// where the CPU went. Usage (from the repository root):
//   node bench/tools/profile-server.ts accounts|transactions|payments [seconds] [--no-read-cache]
// (--no-read-cache: reads run the handlers every time instead of being replayed.)
import { randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { spawnChild } from '../lib/child.ts';
import { profilesDir } from '../lib/context.ts';
import { type LoadSpec, load } from '../lib/load.ts';
import type { Enrolled, ServerArgs, ServerInfo } from '../targets/server.ts';
import { summarize } from './profile-top.ts';

type Workload = (base: string, enrolled: Enrolled) => Omit<LoadSpec, 'connections'>;

const workloads: Record<string, Workload> = {
  accounts: (base, e) => ({ url: `${base}/accounts`, headers: { authorization: e.authorization } }),
  transactions: (base, e) => ({
    url: `${base}/accounts/${e.accounts[0]!.id}/transactions?count=100`,
    headers: { authorization: e.authorization },
  }),
  payments: (base, e) => {
    let n = 0;
    const prefix = randomUUID();
    return {
      url: `${base}/accounts/${e.accounts.find((a) => a.links.payments)!.id}/payments`,
      method: 'POST',
      headers: { authorization: e.authorization, 'content-type': 'application/json' },
      body: JSON.stringify({
        amount: '0.01',
        memo: 'bench',
        payee: { scheme: 'zelle', address: 'bench@example.com', name: 'Bench Payee', type: 'person' },
      }),
      setupRequest: (request) => ({ ...request, headers: { ...request.headers, 'idempotency-key': `${prefix}-${n++}` } }),
    };
  },
};

const { values, positionals } = parseArgs({ allowPositionals: true, options: { 'no-read-cache': { type: 'boolean', default: false } } });
const [workload = 'accounts', seconds = '10'] = positionals;
const make = workloads[workload];
if (!make) throw new Error(`unknown workload ${workload}; known: ${Object.keys(workloads).join(', ')}`);
const workdir = mkdtempSync(join(tmpdir(), 'aggregation-profile-'));
mkdirSync(profilesDir, { recursive: true });
const name = `${workload}-${Date.now()}`;
const server = await spawnChild<ServerInfo>(
  new URL('../targets/server.ts', import.meta.url),
  { databasePath: join(workdir, 'db.sqlite'), enroll: ['username'], readCache: !values['no-read-cache'] } satisfies ServerArgs,
  { execArgv: ['--cpu-prof', `--cpu-prof-dir=${profilesDir}`, `--cpu-prof-name=${name}.cpuprofile`] },
);
try {
  const spec = make(server.info.url, server.info.enrolled[0]!);
  const result = await load({ ...spec, connections: 10, seconds: Number(seconds), pid: server.pid });
  console.log(
    `${workload}: ${Math.round(result.rps)} req/s, p50 ${result.p50.toFixed(2)} ms, p99 ${result.p99.toFixed(2)} ms, statuses ${JSON.stringify(result.statusCodes)}`,
  );
} finally {
  await server.stop();
  rmSync(workdir, { recursive: true, force: true });
}
const file = readdirSync(profilesDir).find((f) => f.startsWith(name))!;
console.log(`profile: ${join(profilesDir, file)}`);
console.log(summarize(join(profilesDir, file), 40));
