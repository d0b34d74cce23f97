// What a test starts outside its own process (servers, mocks, PostgreSQL clusters) stops with it: when it exits, and
// when Ctrl-C, SIGTERM or SIGHUP ends it (as turbo does to the tasks it stops after a failure). A process killed by
// SIGKILL runs nothing: its Node.js children notice the parent is gone (`exitWithParent`), and what cannot
// (a PostgreSQL cluster) carries its owner's pid for the next run to sweep (`ownerMark`, `ownerGone`).
import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const stops = new Set<() => void>();
const EXIT_CODES = { SIGINT: 130, SIGTERM: 143, SIGHUP: 129 } as const;
let installed = false;

function stopAll(): void {
  for (const stop of [...stops]) {
    stops.delete(stop);
    try {
      stop();
    } catch {
      // Already gone; the others still stop.
    }
  }
}

/**
 * Runs `stop` (synchronous) when this process exits or is ended by SIGINT, SIGTERM or SIGHUP, after which it exits
 * as the signal would have. Returns a function that takes `stop` back (once it has run by other means).
 */
export function stopOnExit(stop: () => void): () => void {
  if (!installed) {
    installed = true;
    process.once('exit', stopAll);
    for (const [signal, code] of Object.entries(EXIT_CODES)) {
      process.once(signal, () => {
        stopAll();
        process.exit(code);
      });
    }
  }
  stops.add(stop);
  return () => stops.delete(stop);
}

/**
 * `child` is killed (SIGKILL) when this process exits or is ended by a signal (see `stopOnExit`), so that a test
 * that waits on it with no limit of its own leaves nothing running; forgotten once it has exited by itself. With
 * `group`, its whole process group is: `child` was spawned with `detached: true` to lead a group of its own (npx or
 * npm with the command they run, turbo with its tasks).
 */
export function stopsWithThisProcess<T extends ChildProcess>(child: T, { group = false } = {}): T {
  const forget = stopOnExit(() => (group ? process.kill(-child.pid!, 'SIGKILL') : child.kill('SIGKILL')));
  child.once('exit', forget);
  return child;
}

/**
 * Node.js options for a child process that ends itself with SIGTERM (so its own handlers run) once the process that
 * started it is gone, even by SIGKILL.
 */
export const exitWithParent: string[] = ['--import', pathToFileURL(join(import.meta.dirname, 'exit-with-parent.mjs')).href];

/**
 * Makes every Node.js child this process starts from now on end itself once this process is gone, through
 * NODE_OPTIONS: for children a library spawns with this process's environment (Prism, which the mock starts), whose
 * arguments a test cannot give `exitWithParent`.
 */
export function childrenExitWithParent(): void {
  const options = process.env.NODE_OPTIONS ?? '';
  if (!options.includes(exitWithParent[1]!)) process.env.NODE_OPTIONS = `${options} ${exitWithParent.join(' ')}`.trim();
}

/** The kernel's start time of a process (clock ticks since boot), which tells a pid reused by another process apart. */
function startTime(pid: number): string | undefined {
  try {
    // Field 22 of /proc/<pid>/stat, counted after the command name's closing parenthesis.
    return readFileSync(`/proc/${pid}/stat`, 'utf8').split(')').at(-1)!.trim().split(' ')[19];
  } catch {
    return undefined;
  }
}

/** What a resource left on disk records of the process that owns it: `<pid> <start time>`. */
export const ownerMark = (pid = process.pid): string => `${pid} ${startTime(pid) ?? ''}`.trim();

/** Whether the owner a mark names has ended (its pid is gone, or now belongs to a process started later). */
export function ownerGone(mark: string): boolean {
  const [pid, started] = mark.trim().split(' ');
  if (!pid || !/^\d+$/.test(pid)) return false;
  try {
    process.kill(Number(pid), 0);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
  }
  const now = startTime(Number(pid));
  return started !== undefined && now !== undefined && now !== started;
}

/** What a child process printed, and a wait for a line of it. */
export interface Printed {
  /** Its stdout and stderr so far, as they came. */
  output(): string;
  /** The first match of `pattern` in what it printed, as soon as it prints it; rejects when it ends without it. */
  waitFor(pattern: RegExp): Promise<RegExpMatchArray>;
}

/** Follows what `child` prints on stdout and stderr (both piped). Waits are on its output, never on a clock. */
export function printedBy(child: ChildProcess, name = child.spawnargs.join(' ')): Printed {
  let output = '';
  const streams = [child.stdout!, child.stderr!];
  for (const stream of streams) stream.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const closed = once(child, 'close');
  return {
    output: () => output,
    waitFor: (pattern) =>
      new Promise((resolve, reject) => {
        const check = () => {
          const match = output.match(pattern);
          if (match) resolve(match);
        };
        for (const stream of streams) stream.on('data', check);
        void closed.then(() => {
          check();
          reject(new Error(`${name} ended without printing ${pattern}:\n${output}`));
        });
        check();
      }),
  };
}
