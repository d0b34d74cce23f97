// Starts src/serve.ts in a child process and stops it gently (SIGTERM) or as a crash does (SIGKILL).
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import type { StorageOptions } from '@aggregation/server';

export interface ServerProcess {
  url: string;
  /** Port it listens on, for raw sockets. */
  port: number;
  /** Everything it printed (stdout and stderr lines). */
  output: string[];
  /** Lines of unexpected errors it logged (each a 500 in the making). */
  errors(): string[];
  /** SIGKILL: no cleanup, no flush, as a crash or an OOM kill. Resolves once it is gone. */
  kill(): Promise<void>;
  /** SIGTERM: the server's own graceful close. */
  stop(): Promise<void>;
}

const entry = join(import.meta.dirname, 'serve.ts');

export async function startServerProcess(location: StorageOptions, env: Record<string, string> = {}): Promise<ServerProcess> {
  const child: ChildProcess = spawn(process.execPath, [entry], {
    env: {
      ...process.env,
      ...(location.url ? { DATABASE_URL: location.url } : { DATABASE_PATH: location.path ?? ':memory:' }),
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output: string[] = [];
  createInterface({ input: child.stderr! }).on('line', (line) => output.push(line));
  const exited = once(child, 'exit');
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no "Listening on" within 30 s: ${output.join('\n')}`)), 30_000);
    createInterface({ input: child.stdout! }).on('line', (line) => {
      output.push(line);
      const match = /^Listening on (\S+)/.exec(line);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]!);
      }
    });
    void exited.then(([code]) => {
      clearTimeout(timer);
      reject(new Error(`exited with ${code}: ${output.join('\n')}`));
    });
  });
  const end = async (signal: NodeJS.Signals) => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill(signal);
    await exited;
  };
  return {
    url,
    port: Number(new URL(url).port),
    output,
    errors: () => output.filter((line) => line.startsWith('unexpected error')),
    kill: () => end('SIGKILL'),
    stop: () => end('SIGTERM'),
  };
}
