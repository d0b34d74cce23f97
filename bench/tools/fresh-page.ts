// What a page of 100 transactions rendered fresh (read cache off) costs the server against the limit replaying its
// bytes: the `reads` scenario's "transactions page rendered fresh / limit" row alone, in rounds, with another build
// beside it when asked. Per round: each server's and the limit's CPU µs per response and the per-core ratio.
// CPU per response moves with how the load generator and the server share the cores: compare builds over many rounds.
// Usage (from the repository root, after `npx turbo run build --filter=@aggregation/server...`):
//   node bench/tools/fresh-page.ts [--seconds=5] [--rounds=5] [--module=path/to/another/build/index.js]
// (--module: the server of another build, e.g. a copy of packages/server/dist made before a change, loaded in the
// same rounds, so that both meet the same machine.)
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { type Child, spawnChild } from '../lib/child.ts';
import { LIMIT_SCRIPT } from '../lib/compare.ts';
import { checkingAccount } from '../lib/enroll.ts';
import { expectStatus } from '../lib/http.ts';
import { load } from '../lib/load.ts';
import { median } from '../lib/stats.ts';
import type { ServerArgs, ServerInfo } from '../targets/server.ts';

const { values } = parseArgs({
  options: {
    seconds: { type: 'string', default: '5' },
    rounds: { type: 'string', default: '5' },
    module: { type: 'string' },
  },
});

const workdir = mkdtempSync(join(tmpdir(), 'aggregation-fresh-page-'));
const startServer = (name: string, module?: string) =>
  spawnChild<ServerInfo>(new URL('../targets/server.ts', import.meta.url), {
    databasePath: join(workdir, `${name}.sqlite`),
    enroll: ['username'],
    readCache: false,
    ...(module ? { module: resolve(module) } : {}),
  } satisfies ServerArgs);

const servers: Record<string, Child<ServerInfo>> = { server: await startServer('server') };
if (values.module) servers.other = await startServer('other', values.module);
const limit = await spawnChild<{ url: string; pid: number }>(LIMIT_SCRIPT, {});
try {
  /** Each server's own page: a second server has its own enrollment, token and account ids. */
  const pageOf = (server: Child<ServerInfo>) => {
    const { accounts, authorization } = server.info.enrolled[0]!;
    const path = `/accounts/${checkingAccount(accounts).id}/transactions?count=100`;
    return { path, url: server.info.url + path, headers: { authorization } };
  };
  const { path, url, headers } = pageOf(servers.server!);
  await limit.call('record', { [path]: await expectStatus(url, { headers }, 200) });

  const run = async (url: string, headers: Record<string, string>, pid: number, seconds: number) =>
    (await load({ url, headers, connections: 10, seconds, pid })).cpuPerResponse;
  const runServer = (server: Child<ServerInfo>, seconds: number) => {
    const { url, headers } = pageOf(server);
    return run(url, headers, server.pid, seconds);
  };
  const runLimit = (seconds: number) => run(limit.info.url + path, {}, limit.pid, seconds);

  for (const server of Object.values(servers)) await runServer(server, 2);
  await runLimit(1);
  const ratios: Record<string, number[]> = Object.fromEntries(Object.keys(servers).map((name) => [name, []]));
  for (let round = 0; round < Number(values.rounds); round++) {
    const limitCpu = await runLimit(Number(values.seconds));
    const line = [`limit ${limitCpu.toFixed(1)} µs`];
    // Each round in the other order: the later target meets what the earlier left behind (caches, the collector).
    const entries = Object.entries(servers);
    for (const [name, server] of round % 2 === 0 ? entries : entries.reverse()) {
      const cpu = await runServer(server, Number(values.seconds));
      ratios[name]!.push(limitCpu / cpu);
      line.push(`${name} ${cpu.toFixed(1)} µs (${((100 * limitCpu) / cpu).toFixed(1)} %)`);
    }
    console.log(`round ${round + 1}: ${line.join(', ')}`);
  }
  for (const [name, rounds] of Object.entries(ratios)) console.log(`median, ${name} / limit per core: ${(100 * median(rounds)).toFixed(1)} %`);
} finally {
  for (const server of Object.values(servers)) await server.stop();
  await limit.stop();
  rmSync(workdir, { recursive: true, force: true });
}
