// `npm run bench [-- --quick] [--only=reads,writes] [--profile]`: runs the scenarios in order,
// prints each table as it completes and writes bench/results.md.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createContext } from './lib/context.ts';
import { backgroundBusy, busyShare, cpuPressureMicros, cpuTimes, describeMachine } from './lib/machine.ts';
import { parseOptions, type ScenarioName } from './lib/options.ts';
import { renderSection, type Section, verdict } from './lib/report.ts';
import { prepareServerBefore } from './lib/server-before.ts';
import { client } from './scenarios/client.ts';
import { consumer } from './scenarios/consumer.ts';
import { history } from './scenarios/history.ts';
import { historyLoad } from './scenarios/history-load.ts';
import { integrators } from './scenarios/integrators.ts';
import { mcp } from './scenarios/mcp.ts';
import { memory } from './scenarios/memory.ts';
import { postgres } from './scenarios/postgres.ts';
import { reads } from './scenarios/reads.ts';
import { soak } from './scenarios/soak.ts';
import { toolchain } from './scenarios/toolchain.ts';
import { webhooks } from './scenarios/webhooks.ts';
import { writes } from './scenarios/writes.ts';

const scenarios: Record<ScenarioName, (ctx: ReturnType<typeof createContext>) => Promise<Section>> = {
  reads,
  history,
  writes,
  webhooks,
  client,
  integrators,
  postgres,
  memory,
  'history-load': historyLoad,
  toolchain,
  consumer,
  mcp,
  soak,
};

const options = parseOptions(process.argv.slice(2));
const workdir = mkdtempSync(join(tmpdir(), 'aggregation-bench-'));
const before = options.serverBeforeSpec
  ? prepareServerBefore(options.serverBeforeSpec, fileURLToPath(new URL('../', import.meta.url)), workdir)
  : undefined;
options.serverBefore = before?.entry;
const ctx = createContext(options, workdir);
const machine = describeMachine();
ctx.log("measuring the machine's background load for 2 s");
const background = await backgroundBusy();
const cpuBefore = cpuTimes();
const pressureBefore = cpuPressureMicros();
const started = new Date();
const sections: Section[] = [];
let failed = false;

try {
  for (const name of options.only) {
    ctx.log(`scenario ${name}`);
    const t0 = performance.now();
    let section: Section;
    try {
      section = await scenarios[name](ctx);
    } catch (error) {
      failed = true;
      ctx.log(`scenario ${name} failed: ${(error as Error).stack ?? error}`);
      section = { title: name, about: 'The scenario failed.', tables: [], targets: [], notes: [`Error: ${(error as Error).message}`] };
    }
    section.seconds = (performance.now() - t0) / 1000;
    sections.push(section);
    console.log(`\n${renderSection(section, sections.length)}\n`);
  }
} finally {
  rmSync(workdir, { recursive: true, force: true });
}

const elapsed = (Date.now() - started.getTime()) / 1000;
const busy = busyShare(cpuBefore, cpuTimes());
const pressureAfter = cpuPressureMicros();
const stalled = pressureBefore !== undefined && pressureAfter !== undefined ? (pressureAfter - pressureBefore) / (elapsed * 1e6) : Number.NaN;
const percent = (share: number) => (Number.isFinite(share) ? `${(share * 100).toFixed(0)} %` : 'n/a');
const shownArgs = process.argv.slice(2).filter((arg) => !arg.startsWith('--out'));
const header = [
  '# Benchmarks',
  '',
  `Run of \`npm run bench${shownArgs.length ? ` -- ${shownArgs.join(' ')}` : ''}\` on ${started.toISOString().slice(0, 16).replace('T', ' ')} UTC, ${elapsed.toFixed(0)} s${options.quick ? ' (quick mode: one short round per measurement; numbers are indicative only)' : ''}.`,
  '',
  ...machine.map((line) => `- ${line}`),
  `- Other work on the machine just before the run: ${percent(background)} of all cores busy (2 s sample)`,
  ...(before ? [`- Rows named "server before fixes" run ${before.label} beside the current server, on the same load.`] : []),
  `- During the run: ${percent(busy)} of all cores busy (the benchmark included); some task waited for a CPU ${percent(stalled)} of the time (/proc/pressure/cpu)`,
].join('\n');
const summary = [
  '## Targets',
  '',
  '| scenario | target | measured | goal | verdict |',
  '|---|---|---:|---:|---|',
  ...sections.flatMap((s, i) => s.targets.map((t) => `| ${i + 1}. ${s.title} | ${t.name} | ${t.value} | ${t.goal} | ${verdict(t)} |`)),
].join('\n');
const document = `${[header, summary, ...sections.map((s, i) => renderSection(s, i + 1))].join('\n\n')}\n`;
writeFileSync(options.out, document);
ctx.log(`wrote ${options.out} (${elapsed.toFixed(0)} s)`);
if (failed) process.exitCode = 1;
