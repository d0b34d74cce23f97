// 10. Toolchain: `npm test` cold (a clean copy: no build outputs, no turbo cache) and then warm
// (nothing changed: turbo replays its cache). In quick mode `npx turbo run build` instead. The cold run writes
// turbo's run summary, which names the slowest tasks.
import { spawn, spawnSync } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { stripVTControlCharacters } from 'node:util';
import { readChildrenCpuSeconds, stopsWithThisProcess } from '@aggregation/test-support';
import type { Context } from '../lib/context.ts';
import { cleanCopy } from '../lib/repo-copy.ts';
import type { Section } from '../lib/report.ts';
import { fmtPercent, fmtSeconds } from '../lib/stats.ts';
import { slowestTasks } from '../lib/turbo-summary.ts';

const MAX_WARM_SHARE = 0.05;
const MAX_COLD_MS = 300_000;
const COLD_TARGET = 'cold npm test wall time';
const SLOWEST = 5;
const root = fileURLToPath(new URL('../../', import.meta.url));

interface Run {
  ms: number;
  /** CPU seconds of every process of the run (user and system), as far as they were waited for. */
  cpuSeconds: number;
  code: number | null;
  output: string;
  cached?: string;
  tasks?: string;
}

function environment(cwd: string): NodeJS.ProcessEnv {
  // Not npm's variables of this `npm run bench` (they name this package and script).
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (!key.startsWith('npm_package_') && !key.startsWith('npm_lifecycle_') && key !== 'INIT_CWD') env[key] = value;
  }
  return {
    ...env,
    // The copy's own cache: in a copy of a linked git worktree turbo would otherwise share the main worktree's.
    TURBO_CACHE_DIR: join(cwd, '.turbo', 'cache'),
    TURBO_TELEMETRY_DISABLED: '1',
    TURBO_NO_UPDATE_NOTIFIER: '1',
    FORCE_COLOR: '0',
    NO_COLOR: '1',
  };
}

async function time(command: string, args: string[], cwd: string): Promise<Run> {
  const started = performance.now();
  const cpuBefore = readChildrenCpuSeconds();
  // A process group of its own (npm, turbo and its tasks), killed whole with the bench, however the bench ends.
  const spawned = spawn(command, args, { cwd, env: environment(cwd), stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  const child = stopsWithThisProcess(spawned, { group: true });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => child.once('close', resolve));
  const ms = performance.now() - started;
  const cpuSeconds = readChildrenCpuSeconds() - cpuBefore;
  const plain = stripVTControlCharacters(output);
  return {
    ms,
    cpuSeconds,
    code,
    output: plain,
    ...(/Cached:\s+(.+)/.exec(plain) ? { cached: /Cached:\s+(.+)/.exec(plain)![1]!.trim() } : {}),
    ...(/Tasks:\s+(.+)/.exec(plain) ? { tasks: /Tasks:\s+(.+)/.exec(plain)![1]!.trim() } : {}),
  };
}

/** Files git would see as changed or new (not ignored): turbo hashes these as task inputs. */
function visibleChanges(cwd: string): Set<string> {
  const status = spawnSync('git', ['status', '--porcelain', '--untracked-files=all'], { cwd, encoding: 'utf8' });
  return new Set(status.stdout.split('\n').filter(Boolean));
}

export async function toolchain(ctx: Context): Promise<Section> {
  const { options } = ctx;
  const [command, args, label] = options.quick
    ? (['npx', ['turbo', 'run', 'build'], 'npx turbo run build'] as const)
    : (['npm', ['test'], 'npm test'] as const);
  ctx.log('toolchain: copying the working tree (tracked and untracked files, .git; node_modules hard-linked)');
  const copy = cleanCopy(root);
  const notes: string[] = [];
  try {
    ctx.log(`toolchain: cold \`${label}\``);
    const before = visibleChanges(copy);
    // The run summary names the slowest tasks; `npm test` keeps it when given --summarize.
    const cold = await time(command, [...args, ...(options.quick ? ['--summarize'] : ['--', '--summarize'])], copy);
    const slowest = slowestTasks(copy).slice(0, SLOWEST);
    // A run that writes files turbo hashes (not ignored) changes its own inputs: the next run misses.
    const written = [...visibleChanges(copy)].filter((line) => !before.has(line));
    if (written.length > 0) {
      notes.push(
        `The cold run changed ${written.length} file(s) that are not git-ignored, which turbo hashes as inputs, so the warm run cannot replay the tasks that read them: ` +
          written
            .slice(0, 8)
            .map((line) => `\`${line.slice(3)}\``)
            .join(', ') +
          (written.length > 8 ? ', …' : '') +
          '.',
      );
    }
    ctx.log(`toolchain: warm \`${label}\``);
    const warm = await time(command, [...args], copy);
    for (const [name, run] of [
      ['cold', cold],
      ['warm', warm],
    ] as const) {
      if (run.code !== 0) {
        const log = join(ctx.workdir, '..', `aggregation-bench-toolchain-${name}.log`);
        writeFileSync(log, run.output);
        notes.push(
          `The ${name} run exited with code ${run.code}; its output is in ${log}. Last lines: ${run.output.trim().split('\n').slice(-5).join(' / ')}`,
        );
      }
    }
    const share = warm.ms / cold.ms;
    // However well its tasks are spread over the cores, a run takes at least its CPU time divided by them.
    const cores = availableParallelism();
    const floorMs = (cold.cpuSeconds * 1000) / cores;
    notes.push(
      options.quick
        ? 'Quick mode measures `npx turbo run build` (not the whole `npm test`, which takes minutes); the full run measures `npm test`. ' +
            'A warm run cannot go below the start of npx and turbo (about 0.2 s), so against a build of a few seconds the 5 % goal is at the edge.'
        : 'Cold: a copy of the working tree with no build outputs and no turbo cache (what `git clean -xfd -e node_modules` leaves), node_modules hard-linked. Warm: the same command again with nothing changed.',
    );
    return {
      title: 'Toolchain',
      about: `\`${label}\` cold, then warm with nothing changed (turbo replays its cache).`,
      tables: [
        {
          headers: ['run', 'wall time', 'CPU time (all processes)', `CPU time / ${cores} cores`, 'turbo tasks', 'turbo cache', 'exit code'],
          rows: [cold, warm].map((run, index) => [
            `${index === 0 ? 'cold' : 'warm'} \`${label}\``,
            fmtSeconds(run.ms),
            fmtSeconds(run.cpuSeconds * 1000),
            fmtSeconds((run.cpuSeconds * 1000) / cores),
            run.tasks ?? '',
            run.cached ?? '',
            String(run.code),
          ]),
        },
        {
          caption: `The ${SLOWEST} slowest tasks of the cold run (turbo's run summary)`,
          headers: ['task', 'wall time', 'cache', 'exit code'],
          rows: slowest.map((task) => [task.taskId, fmtSeconds(task.ms), task.cache, String(task.exitCode)]),
        },
      ],
      targets: [
        // The goal is the whole `npm test`'s; quick mode's build is only reported, and the goal's row says so.
        ...(options.quick
          ? [
              { name: `cold \`${label}\` wall time`, value: fmtSeconds(cold.ms), goal: 'report', met: null },
              { name: COLD_TARGET, value: 'not run in quick mode', goal: `≤ ${MAX_COLD_MS / 1000} s`, met: null },
            ]
          : [
              {
                name: COLD_TARGET,
                value: fmtSeconds(cold.ms),
                goal: `≤ ${MAX_COLD_MS / 1000} s`,
                met: cold.code !== 0 ? null : cold.ms <= MAX_COLD_MS,
              },
            ]),
        {
          name: `cold \`${label}\`: its CPU time over the ${cores} cores (the shortest wall time they allow)`,
          value: fmtSeconds(floorMs),
          goal: 'report',
          met: null,
        },
        {
          name: `warm / cold \`${label}\``,
          value: fmtPercent(share),
          goal: `< ${MAX_WARM_SHARE * 100} %`,
          met: cold.code === 0 && warm.code === 0 ? share < MAX_WARM_SHARE : null,
        },
      ],
      notes,
    };
  } finally {
    rmSync(copy, { recursive: true, force: true });
  }
}
