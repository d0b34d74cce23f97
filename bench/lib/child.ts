// Processes under test run in children of their own (their RSS and CPU are theirs alone),
// driven over IPC: the child announces `ready` with what the harness needs (url, tokens), then
// answers calls until `stop`, after which it exits on its own so --cpu-prof profiles get written.
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { stopsWithThisProcess } from '@aggregation/test-support';

interface Reply {
  id: number;
  result?: unknown;
  error?: string;
}

export interface Child<Info> {
  pid: number;
  info: Info;
  call<T>(type: string, payload?: unknown): Promise<T>;
  /** Asks the child to stop and waits for it (killing it after a grace period). */
  stop(): Promise<void>;
  /** The tail of what the child wrote to stdout and stderr, for error messages. */
  output(): string;
}

export interface SpawnOptions {
  execArgv?: string[];
  readyTimeoutMs?: number;
  env?: Record<string, string>;
}

export async function spawnChild<Info>(script: URL, args: unknown, options: SpawnOptions = {}): Promise<Child<Info>> {
  // Killed with the bench, however it ends; a bench killed by SIGKILL closes the IPC channel, which ends the child.
  const child: ChildProcess = stopsWithThisProcess(
    spawn(process.execPath, [...(options.execArgv ?? []), script.pathname, JSON.stringify(args)], {
      stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
      serialization: 'advanced',
      env: { ...process.env, ...options.env },
    }),
  );
  let output = '';
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-8000);
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);

  const pending = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();
  let nextId = 1;
  let exited = false;
  child.once('exit', (code, signal) => {
    exited = true;
    for (const waiter of pending.values()) waiter.reject(new Error(`child ${script.pathname} exited (${code ?? signal}):\n${output}`));
    pending.clear();
  });

  const info = await new Promise<Info>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`child ${script.pathname} was not ready within ${options.readyTimeoutMs ?? 120_000} ms:\n${output}`));
    }, options.readyTimeoutMs ?? 120_000);
    child.on('message', (message: { type?: string; info?: Info } & Reply) => {
      if (message.type === 'ready') {
        clearTimeout(timer);
        resolve(message.info as Info);
        return;
      }
      const waiter = pending.get(message.id);
      if (!waiter) return;
      pending.delete(message.id);
      if (message.error !== undefined) waiter.reject(new Error(message.error));
      else waiter.resolve(message.result);
    });
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`child ${script.pathname} exited (${code ?? signal}) before it was ready:\n${output}`));
    });
  });

  return {
    pid: child.pid!,
    info,
    call<T>(type: string, payload?: unknown) {
      if (exited) return Promise.reject(new Error(`child ${script.pathname} has exited:\n${output}`));
      const id = nextId++;
      return new Promise<T>((resolve, reject) => {
        pending.set(id, { resolve: resolve as (value: unknown) => void, reject });
        child.send({ id, type, payload });
      });
    },
    async stop() {
      if (exited) return;
      const gone = once(child, 'exit');
      child.send({ id: 0, type: 'stop' });
      const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
      await gone;
      clearTimeout(timer);
    },
    output: () => output,
  };
}
