// Starts Prism as a child process on a bundled description and resolves once it listens.
import { spawn, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';
import { once } from 'node:events';
import type { DocumentName } from '@aggregation/openapi/contract';
import { distDir } from '@aggregation/openapi/contract';

const require = createRequire(import.meta.url);
const prismCli = join(dirname(require.resolve('@stoplight/prism-cli/package.json')), 'dist', 'index.js');

export type Running = { url: string; port: number; stop: () => Promise<void> };

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

/** Runs `prism <args>` and waits for its "listening" line; rejects with Prism's own output if it exits first. */
export async function runPrism(args: string[], port: number, host: string, startTimeoutMs = 60_000): Promise<Running> {
  const child: ChildProcess = spawn(process.execPath, [prismCli, ...args, '--port', String(port), '--host', host], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`Prism did not start within ${startTimeoutMs} ms:\n${output}`));
    }, startTimeoutMs);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (/Prism is listening on/.test(output)) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`Prism exited with code ${code} before listening:\n${output}`));
    });
  });
  // Keep draining Prism's log so a full pipe never blocks it.
  child.stdout!.resume();
  child.stderr!.resume();
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = once(child, 'exit');
    child.kill('SIGTERM');
    await exited;
  };
  return { url: `http://${host}:${port}`, port, stop };
}
