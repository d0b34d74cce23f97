// Runs the integrator's command as a process group of its own, in the current directory, with its output passed
// through. A command that outlives --timeout, and whatever it left running when it ended (a server it started in the
// background), is ended with its whole group: SIGTERM, then SIGKILL after a grace period. So is the group when this
// process is interrupted.
import { spawn } from 'node:child_process';
import { once } from 'node:events';

/** How long a group gets between SIGTERM and SIGKILL. */
export const GRACE_MS = 3_000;

export type CommandResult = {
  exitCode: number | null;
  signal: string | null;
  seconds: number;
  /** The command could not start, or was ended: one line. */
  error?: string;
  /** The command never started (not found, not executable): a setup problem. */
  notStarted?: boolean;
};

const groups = new Set<number>();

function alive(group: number): boolean {
  try {
    process.kill(-group, 0);
    return true;
  } catch {
    return false;
  }
}

function signalGroup(group: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-group, signal);
  } catch {
    // Already gone.
  }
}

/** Ends a process group: SIGTERM, then SIGKILL to what is left after the grace period. */
export async function endGroup(group: number): Promise<void> {
  if (!alive(group)) return;
  signalGroup(group, 'SIGTERM');
  const deadline = Date.now() + GRACE_MS;
  while (alive(group) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
  if (alive(group)) signalGroup(group, 'SIGKILL');
}

let interruptsHandled = false;
/** An interrupted run ends the command's group too, then ends as the signal asked. */
function handleInterrupts(): void {
  if (interruptsHandled) return;
  interruptsHandled = true;
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    process.once(signal, () => {
      for (const group of groups) signalGroup(group, 'SIGKILL');
      process.kill(process.pid, signal);
    });
  }
  process.once('exit', () => {
    for (const group of groups) signalGroup(group, 'SIGKILL');
  });
}

export async function runCommand(command: string[], env: Record<string, string>, timeoutMs: number): Promise<CommandResult> {
  handleInterrupts();
  const started = Date.now();
  const seconds = () => (Date.now() - started) / 1000;
  // The command's standard output goes to standard error, so that standard output holds the report, verdict first.
  const child = spawn(command[0]!, command.slice(1), { stdio: ['inherit', 2, 2], env: { ...process.env, ...env }, detached: true });
  const spawned = await new Promise<NodeJS.ErrnoException | undefined>((resolve) => {
    child.once('spawn', () => resolve(undefined));
    child.once('error', (error: NodeJS.ErrnoException) => resolve(error));
  });
  if (spawned) {
    const reason =
      spawned.code === 'ENOENT' ? 'not found' : spawned.code === 'EACCES' ? 'not executable (permission denied)' : spawned.message.split('\n')[0];
    return { exitCode: null, signal: null, seconds: seconds(), notStarted: true, error: `the command ${command[0]} could not start: ${reason}` };
  }
  const group = child.pid!;
  groups.add(group);
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    void endGroup(group);
  }, timeoutMs);
  const exited = once(child, 'exit') as Promise<[number | null, NodeJS.Signals | null]>;
  const [exitCode, signal] = await exited;
  clearTimeout(timer);
  // What the command left running in its group goes with it.
  await endGroup(group);
  groups.delete(group);
  const result: CommandResult = { exitCode, signal, seconds: seconds() };
  if (timedOut) result.error = `the command did not end within ${Math.round(timeoutMs / 1000)} s (--timeout); its process group was ended`;
  return result;
}
