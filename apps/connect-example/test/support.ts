// What the example's browser test runs against: the sandbox as `npm start` starts it (the server's bin, built by the
// test's `^build`), and a webhook receiver.
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { exitWithParent, printedBy, stopsWithThisProcess } from '@aggregation/test-support';

const require = createRequire(import.meta.url);
const serverBin = join(require.resolve('@aggregation/server/package.json'), '..', 'dist', 'bin.js');

export interface Sandbox {
  url: string;
  /** The token `npm start` prints: an enrollment of the default application. */
  token: string;
  stop(): Promise<void>;
}

/** The sandbox server's bin on a free port and a fresh SQLite file, as `npm start` runs it. */
export async function startSandbox(): Promise<Sandbox> {
  const dir = await mkdtemp(join(tmpdir(), 'connect-example-sandbox-'));
  const child: ChildProcess = stopsWithThisProcess(
    spawn(process.execPath, [...exitWithParent, serverBin], {
      env: { ...process.env, PORT: '0', HOST: '127.0.0.1', DATABASE_PATH: join(dir, 'sandbox.sqlite'), ACCESS_LOG: 'off' },
      stdio: ['ignore', 'pipe', 'pipe'],
    }),
  );
  const printed = printedBy(child, 'the sandbox server');
  const [, url] = await printed.waitFor(/^Listening on (\S+)/m);
  const [, token] = await printed.waitFor(/^Sandbox access token: (\S+)/m);
  return {
    url: url!,
    token: token!,
    async stop() {
      if (child.exitCode === null) {
        child.kill('SIGTERM');
        await once(child, 'exit');
      }
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** Listens on a free loopback port; resolves to its base URL. */
export async function listen(server: Server | ReturnType<typeof import('@hono/node-server').createAdaptorServer>): Promise<string> {
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

export const close = (server: { close(callback: () => void): unknown } | undefined) =>
  new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));

/** A webhook receiver that keeps every event it is sent (the sandbox signs them; the client's tests check that). */
export async function startReceiver(): Promise<{ url: string; events: { type: string; payload: Record<string, unknown> }[]; server: Server }> {
  const events: { type: string; payload: Record<string, unknown> }[] = [];
  const server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      events.push(JSON.parse(body));
      response.writeHead(204).end();
    });
  });
  return { url: `${await listen(server)}/webhooks`, events, server };
}

/** A loopback URL nothing answers on: a port taken, then given back. */
export async function unansweredUrl(): Promise<string> {
  const server = createServer();
  const url = await listen(server);
  await close(server);
  return url;
}
