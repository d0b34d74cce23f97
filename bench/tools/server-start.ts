// What starting the server costs in CPU: a process that imports the server's build and creates its app (storage in
// memory, the webhook worker on, as `npm start` makes it) and then exits, against a bare Node.js process that exits,
// in the same rounds. Per target: the median CPU ms of its process (user and system) and its ratio to the bare one.
// Usage (from the repository root, after `npx turbo run build --filter=@aggregation/server...`):
//   node bench/tools/server-start.ts [--rounds=10] [--module=path/to/another/build/index.js]
// (--module: the server of another build, e.g. a copy of packages/server/dist made before a change.)
import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { readChildrenCpuSeconds } from '@aggregation/test-support';
import { median } from '../lib/stats.ts';

const { values } = parseArgs({ options: { rounds: { type: 'string', default: '10' }, module: { type: 'string' } } });

const startingServer = (module: string) =>
  `const { createApp } = await import(${JSON.stringify(pathToFileURL(resolve(module)).href)}); createApp({}); process.exit(0);`;
const targets: Record<string, string> = {
  'bare node': 'process.exit(0);',
  server: startingServer('packages/server/dist/index.js'),
  ...(values.module ? { other: startingServer(values.module) } : {}),
};

/** CPU ms of one process running `script`, waited for. */
function cpuMsOf(script: string): number {
  const before = readChildrenCpuSeconds();
  const ran = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
  if (ran.status !== 0) throw new Error(`exit ${ran.status}: ${ran.stderr}`);
  return (readChildrenCpuSeconds() - before) * 1000;
}

const samples: Record<string, number[]> = Object.fromEntries(Object.keys(targets).map((name) => [name, []]));
for (let round = 0; round < Number(values.rounds); round++) {
  // Each round in the other order: the later process meets what the earlier left in the machine's caches.
  const entries = Object.entries(targets);
  for (const [name, script] of round % 2 === 0 ? entries : entries.reverse()) samples[name]!.push(cpuMsOf(script));
}
const bare = median(samples['bare node']!);
for (const [name, cpu] of Object.entries(samples)) {
  console.log(`${name}: ${median(cpu).toFixed(0)} ms of CPU (median of ${cpu.length}), ${(median(cpu) / bare).toFixed(2)}× bare node`);
}
