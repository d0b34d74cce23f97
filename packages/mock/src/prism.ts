// Starts Prism as a child process on a bundled description and resolves once it listens.
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createRequire } from 'node:module';
import { connect, createServer } from 'node:net';
import { dirname, join } from 'node:path';
import type { DocumentName } from '@aggregation/openapi/contract';
import { distDir } from '@aggregation/openapi/contract';

const require = createRequire(import.meta.url);
const prismCli = join(dirname(require.resolve('@stoplight/prism-cli/package.json')), 'dist', 'index.js');

export type Running = {
  url: string;
  port: number;
  stop: () => Promise<void>;
  /** Everything Prism printed so far (at `warn`, its violations). */
  log: () => string;
};

/** A free loopback port, chosen by the kernel. */
export async function freePort(host = '127.0.0.1'): Promise<number> {
  const server = createServer();
  server.listen(0, host);
  await once(server, 'listening');
  const address = server.address();
  server.close();
  if (!address || typeof address === 'string') throw new Error('could not read the port of a probe socket');
  return address.port;
}

export function bundlePath(document: DocumentName): string {
  return join(distDir, `${document}.json`);
}

/** Whether something accepts connections on host:port. */
function accepts(port: number, host: string): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, host);
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/**
 * Runs `prism <args>` and resolves once its port accepts connections; rejects with Prism's own output if it exits
 * first. The port is probed rather than waiting for "Prism is listening": that line is an info message, which
 * `--verboseLevel warn` (kept so that the log holds only violations) does not print. No limit by default: on a
 * loaded machine Prism takes as long as it takes, and a Prism that fails exits, which ends the wait.
 */
export async function runPrism(args: string[], port: number, host: string, startTimeoutMs = Number.POSITIVE_INFINITY): Promise<Running> {
  const child: ChildProcess = spawn(process.execPath, [prismCli, ...args, '--port', String(port), '--host', host], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  // Keep draining Prism's log so a full pipe never blocks it.
  const onData = (chunk: Buffer) => {
    output += chunk.toString();
  };
  child.stdout!.on('data', onData);
  child.stderr!.on('data', onData);
  let exited = false;
  child.once('exit', () => {
    exited = true;
  });
  const deadline = Date.now() + startTimeoutMs;
  while (!(await accepts(port, host))) {
    if (exited) throw new Error(`Prism exited with code ${child.exitCode} before listening:\n${output}`);
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`Prism did not start within ${startTimeoutMs} ms:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const done = once(child, 'exit');
    child.kill('SIGTERM');
    await done;
  };
  return { url: `http://${host}:${port}`, port, stop, log: () => output };
}
