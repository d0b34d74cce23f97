// `npm test`: lint, type checks and tests of every workspace through turbo, streamed as turbo prints them, then one
// closing line: what vitest reported in each workspace, added up (turbo prefixes every line, and replays the same
// lines from its cache, so the sum is right on a cached run too), and on a failed run which test files and tasks
// failed and how many tasks never ran, from turbo's run summary. Ctrl-C or SIGTERM stops turbo, which stops its tasks,
// and the closing line still says what happened.
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { stripVTControlCharacters } from 'node:util';
import { type SummaryTask, TestRunTally, withGoFlag } from '@aggregation/test-support';

const turboBin = join(import.meta.dirname, '..', 'node_modules', '.bin', 'turbo');
const tasks = ['lint', 'lint:biome', 'lint:cycles', 'typecheck', 'test'];
// This script always asks turbo for its run summary (twice is turbo's error); `--summarize` given to it keeps the file.
const keepSummary = process.argv.includes('--summarize');
const given = process.argv.slice(2).filter((arg) => arg !== '--summarize');
// More tasks at once than turbo's default of 10: the graph's longest path (the builds, then the release test, which
// installs every package it packs) would otherwise wait for a slot behind tests that are not on it. `--concurrency`
// given to this script wins.
const concurrency = given.some((arg) => arg.startsWith('--concurrency')) ? [] : ['--concurrency=16'];
const args = ['run', ...tasks, ...concurrency, ...given];
// Node.js keeps the code it compiles (the tools', and the tests' own with their types stripped) in a folder of this
// checkout, for every later process of the run: hundreds of processes start Node.js (npm, vitest's workers, servers,
// the CLI), and each would otherwise compile the same modules again. `git clean -xfd` removes it with the build outputs.
const compileCache = join(import.meta.dirname, '..', '.cache', 'node-compile-cache');
// Go builds the generated clients and the programs against them with -trimpath: without it, Go's build cache keys each
// package by the folder it is in, so a fresh clone compiles again what an earlier run on the machine compiled.
const goFlags = withGoFlag(process.env.GOFLAGS, '-trimpath');
const env = { TURBO_TELEMETRY_DISABLED: '1', TURBO_NO_UPDATE_NOTIFIER: '1', NODE_COMPILE_CACHE: compileCache, ...process.env, GOFLAGS: goFlags };
const turbo = spawn(turboBin, [...args, '--summarize'], { stdio: ['ignore', 'pipe', 'inherit'], env });
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => turbo.kill(signal));

const tally = new TestRunTally();
let summaryPath: string | undefined;
createInterface({ input: turbo.stdout! }).on('line', (line) => {
  process.stdout.write(`${line}\n`);
  tally.line(line);
  summaryPath ??= /^\s*Summary:\s+(\S+\.json)\s*$/.exec(stripVTControlCharacters(line))?.[1];
});

/** The tasks that ran to their end, from turbo's run summary (which it writes only when it gets that far). */
function ranTasks(): SummaryTask[] {
  if (!summaryPath) return [];
  try {
    return (JSON.parse(readFileSync(summaryPath, 'utf8')) as { tasks: SummaryTask[] }).tasks;
  } catch {
    return [];
  } finally {
    if (!keepSummary) rmSync(summaryPath, { force: true });
  }
}

/** Every task of the run's graph that has a command: asked of turbo only after a failure, to count what never ran. */
function plannedTasks(): string[] | undefined {
  const dry = spawnSync(turboBin, [...args, '--dry=json'], { env, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  try {
    const graph = JSON.parse(dry.stdout) as { tasks: { taskId: string; command: string }[] };
    return graph.tasks.filter((task) => task.command !== '<NONEXISTENT>').map((task) => task.taskId);
  } catch {
    return undefined;
  }
}

turbo.on('close', (code, signal) => {
  const exitCode = code ?? (signal ? 1 : 0);
  const ran = ranTasks();
  const planned = exitCode === 0 ? undefined : plannedTasks();
  console.log(`\n${tally.closingLine({ exitCode, ran, ...(planned ? { planned } : {}) })}`);
  process.exit(exitCode);
});
