// Many programs of one language run one after another in one process (a runner of runners/), so that each language's
// start-up (a JVM, an interpreter importing the client, a Go link) is paid once instead of once per program.
//
// The runner reads a plan (JSON: `programs`, each with its `name` and `env`, plus what the language needs) and, for
// each program in turn, sets its environment, prints a start marker (to stdout and stderr), runs it, and prints an
// end marker with whether it failed and why. A marker is a line starting with U+001E and holding JSON. What a program
// prints between its markers is its output. A program that ends the process (Go's log.Fatal, System.exit) fails;
// the programs after it run in a new process. Given `programTimeoutMs`, a program that shows no end that long after
// its start marker fails as well; the runner's own start-up (compiling, for Java) is waited for however long a loaded
// machine takes, and so is every program without it (the test's hang guard is the limit).
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { stopsWithThisProcess } from '@aggregation/test-support';

export type Program = { name: string; env: Record<string, string> } & Record<string, unknown>;
export type Outcome = { ok: boolean; output: string; error: string };

export type InOneProcessOptions = {
  /** The runner's own environment; each program's `env` is set on top of it. */
  env: NodeJS.ProcessEnv;
  cwd?: string;
  /** Where the plans are written. */
  dir: string;
  /** What the plan holds besides `programs` (the Java runner's `groups`). */
  plan?: Record<string, unknown>;
  /** Longest wait for a started program's end marker; no limit when not given. */
  programTimeoutMs?: number;
};

const markerStart = '\u001e';
type Marker = { start: string } | { end: string; ok: boolean; error: string };

/** Splits a line into what a program printed before a marker, and the marker. */
function parseLine(line: string): { text: string; marker?: Marker } {
  const at = line.indexOf(markerStart);
  if (at < 0) return { text: line };
  return { text: line.slice(0, at), marker: JSON.parse(line.slice(at + 1)) as Marker };
}

/** Runs `command args <plan.json>` until every program has an outcome; resolves to each program's, by name. */
export async function runInOneProcess(
  command: string,
  args: readonly string[],
  programs: readonly Program[],
  options: InOneProcessOptions,
): Promise<Map<string, Outcome>> {
  const outcomes = new Map<string, Outcome>();
  let remaining = [...programs];
  for (let attempt = 0; remaining.length > 0; attempt++) {
    const plan = join(options.dir, `plan-${attempt}.json`);
    writeFileSync(plan, JSON.stringify({ ...options.plan, programs: remaining }));
    const started = await runOnce(command, [...args, plan], options, outcomes);
    remaining = remaining.filter((program) => !outcomes.has(program.name));
    if (!started.ran) {
      // It ended before running a program (it did not build, or could not start): nothing after would do better.
      for (const program of remaining) outcomes.set(program.name, { ok: false, output: '', error: `the runner ended first: ${started.why}` });
      break;
    }
  }
  return outcomes;
}

async function runOnce(
  command: string,
  args: readonly string[],
  options: InOneProcessOptions,
  outcomes: Map<string, Outcome>,
): Promise<{ ran: boolean; why: string }> {
  const child = stopsWithThisProcess(spawn(command, args, { cwd: options.cwd, env: options.env, stdio: ['ignore', 'pipe', 'pipe'] }));
  const timeoutMs = options.programTimeoutMs;
  let current: { name: string; output: string } | undefined;
  let ran = false;
  let timedOut = false;
  let watchdog: NodeJS.Timeout | undefined;
  const arm = () => {
    clearTimeout(watchdog);
    if (timeoutMs === undefined) return;
    watchdog = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, timeoutMs);
  };

  // stderr, split by the start markers the runner writes to it too: each program's share, and what came before.
  const stderr = new Map<string, string>();
  let stderrOf = '';
  const errors = createInterface({ input: child.stderr, crlfDelay: Number.POSITIVE_INFINITY });
  errors.on('line', (line) => {
    const { text, marker } = parseLine(line);
    if (text) stderr.set(stderrOf, `${stderr.get(stderrOf) ?? ''}${text}\n`);
    if (marker && 'start' in marker) stderrOf = marker.start;
  });

  const lines = createInterface({ input: child.stdout, crlfDelay: Number.POSITIVE_INFINITY });
  lines.on('line', (line) => {
    const { text, marker } = parseLine(line);
    if (current && (text || !marker)) current.output += `${text}\n`;
    if (!marker) return;
    if ('start' in marker) {
      arm();
      ran = true;
      current = { name: marker.start, output: '' };
    } else if (current) {
      clearTimeout(watchdog);
      const error = [marker.error, stderr.get(current.name)].filter(Boolean).join('\n');
      outcomes.set(current.name, { ok: marker.ok, output: current.output, error });
      current = undefined;
    }
  });

  const [exit] = await Promise.all([
    new Promise<string>((resolve) => {
      child.on('error', (error) => resolve(error.message));
      child.on('close', (code, signal) => resolve(timedOut ? `no answer within ${timeoutMs! / 1000} s` : `exit code ${code ?? signal}`));
    }),
    new Promise((resolve) => lines.on('close', resolve)),
    new Promise((resolve) => errors.on('close', resolve)),
  ]);
  clearTimeout(watchdog);
  if (current) {
    const error = [`it ended the process (${exit})`, stderr.get(current.name)].filter(Boolean).join('\n');
    outcomes.set(current.name, { ok: false, output: current.output, error });
  }
  return { ran, why: `${exit}\n${stderr.get('') ?? ''}` };
}
