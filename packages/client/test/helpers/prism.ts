// Starts the Prism mock of a bundled description on a free port for one test file, and stops it after.
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { skipWhenMissing, stopsWithThisProcess } from '@aggregation/test-support';

export const repoRoot = join(import.meta.dirname, '..', '..', '..', '..');

export function bundlePath(name: '2020-10-12' | '2019-07-01' | 'sandbox'): string {
  return join(repoRoot, 'openapi', 'dist', `${name}.json`);
}

/**
 * Skip reason when a bundle is missing. In CI a missing bundle is a failure, not a skip: the suite must not pass
 * quietly without the contract.
 */
export function missingBundle(name: '2020-10-12' | '2019-07-01' | 'sandbox'): string | false {
  const missing = !existsSync(bundlePath(name)) && `${bundlePath(name)} is missing (build it with npm run build -w @aggregation/openapi)`;
  return skipWhenMissing(`the tests against the ${name} bundle`, missing);
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

export type RunningPrism = { baseUrl: string; stop(): Promise<void>; output(): string };

/** Prism's mock of `bundle` on a free port, once it says it listens (however long that takes); fails if it exits first. */
export async function startPrism(bundle: string): Promise<RunningPrism> {
  const port = await freePort();
  const bin = join(repoRoot, 'node_modules', '.bin', 'prism');
  // Stopped with the test process, however a signal ends it.
  const child: ChildProcess = stopsWithThisProcess(
    spawn(bin, ['mock', '-h', '127.0.0.1', '-p', String(port), bundle], { cwd: repoRoot, stdio: ['ignore', 'pipe', 'pipe'] }),
  );
  let output = '';
  child.stdout?.on('data', (chunk) => (output += chunk));
  child.stderr?.on('data', (chunk) => (output += chunk));
  const baseUrl = `http://127.0.0.1:${port}`;

  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
    await exited;
    clearTimeout(timer);
  };

  await new Promise<void>((resolve, reject) => {
    const check = () => {
      if (output.includes('Prism is listening')) resolve();
      else if (child.exitCode !== null || child.signalCode !== null) reject(new Error(`Prism exited early:\n${output}`));
    };
    child.stdout?.on('data', check);
    child.once('exit', check);
  });
  return { baseUrl, stop, output: () => output };
}
