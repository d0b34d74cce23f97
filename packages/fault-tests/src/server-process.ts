// Starts src/serve.ts in a child process and stops it gently (SIGTERM) or as a crash does (SIGKILL).
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { StorageOptions } from '@aggregation/server';
import { startListening } from '../../server/test/helpers/child.ts';

export interface ServerProcess {
  url: string;
  /** Port it listens on, for raw sockets. */
  port: number;
  /** Its process id, for what /proc tells of it. */
  pid: number;
  /** Everything it printed (stdout and stderr lines). */
  output: string[];
  /** Lines of unexpected errors it logged (each a 500 in the making). */
  errors(): string[];
  /** What stays in memory after a full collection (needs NODE_OPTIONS=--expose-gc in its environment). */
  memoryAfterCollection(): Promise<NodeJS.MemoryUsage>;
  /** SIGKILL: no cleanup, no flush, as a crash or an OOM kill. Resolves once it is gone. */
  kill(): Promise<void>;
  /** SIGTERM: the server's own graceful close. */
  stop(): Promise<void>;
}

const entry = join(import.meta.dirname, 'serve.ts');
/** The suite starts some 25 servers: Node.js keeps their modules compiled (and stripped of types) for the next one. */
const compileCache = process.env.NODE_COMPILE_CACHE ?? join(tmpdir(), 'aggregation-fault-tests-compile-cache');

export async function startServerProcess(location: StorageOptions, env: Record<string, string> = {}): Promise<ServerProcess> {
  const { child, url, output, exited } = await startListening(entry, {
    env: {
      ...process.env,
      NODE_COMPILE_CACHE: compileCache,
      ...(location.url ? { DATABASE_URL: location.url } : { DATABASE_PATH: location.path ?? ':memory:' }),
      ...env,
    },
  });
  let ending = false;
  // A server that dies on its own says so among its errors, with what it printed last.
  void exited.then(([code, signal]) => {
    if (!ending) output.push(`unexpected error: the server exited (${code ?? signal}): ${output.slice(-20).join('\n')}`);
  });
  const end = async (signal: NodeJS.Signals) => {
    ending = true;
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill(signal);
    await exited;
  };
  return {
    url,
    port: Number(new URL(url).port),
    pid: child.pid!,
    output,
    errors: () => output.filter((line) => line.startsWith('unexpected error')),
    async memoryAfterCollection() {
      const seen = output.length;
      child.kill('SIGUSR2');
      // However long a loaded machine takes to collect and print it.
      for (;;) {
        const line = output.slice(seen).find((text) => text.startsWith('Memory: '));
        if (line) return JSON.parse(line.slice('Memory: '.length));
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    },
    kill: () => end('SIGKILL'),
    stop: () => end('SIGTERM'),
  };
}
