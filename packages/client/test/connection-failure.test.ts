// A request that gets no HTTP response says why, through Node's own fetch: a closed port, a name that does not
// resolve, a server that hangs up, a timeout.
import assert from 'node:assert/strict';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { createServer } from 'node:net';
import { describe, it } from 'vitest';
import { ConnectionError, createClient } from '../src/index.ts';

const failureOf = async (baseUrl: string, options: { timeoutMs?: number } = {}) => {
  const client = createClient({ token: 'test_token_abc', baseUrl, retry: false, ...options });
  const error = await client.accounts.list().then(
    () => assert.fail('no error'),
    (error: unknown) => error,
  );
  assert.ok(error instanceof ConnectionError, String(error));
  return error;
};

/** A port nothing listens on: bound, then closed. */
async function closedPort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  server.close();
  await once(server, 'close');
  return port;
}

describe('ConnectionError names its cause', () => {
  it('connection refused', async () => {
    const error = await failureOf(`http://127.0.0.1:${await closedPort()}`);
    assert.equal(error.reason, 'connection_refused');
    assert.match(error.message, /connection refused \(is the server running at that address\?\): GET http:\/\/127\.0\.0\.1:\d+\/accounts/);
  });

  it('a host name that does not resolve', async () => {
    const error = await failureOf('http://no-such-host.invalid');
    assert.equal(error.reason, 'dns');
    assert.match(error.message, /host name not found \(DNS\)/);
  });

  it('a server that hangs up', async () => {
    const server = createServer((socket) => socket.destroy()).listen(0, '127.0.0.1');
    await once(server, 'listening');
    try {
      const error = await failureOf(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
      assert.equal(error.reason, 'connection_reset');
    } finally {
      server.close();
    }
  });

  it('no response in time', async () => {
    const sockets: import('node:net').Socket[] = [];
    const server = createServer((socket) => void sockets.push(socket)).listen(0, '127.0.0.1');
    await once(server, 'listening');
    try {
      const error = await failureOf(`http://127.0.0.1:${(server.address() as AddressInfo).port}`, { timeoutMs: 50 });
      assert.equal(error.reason, 'timeout');
    } finally {
      for (const socket of sockets) socket.destroy();
      server.close();
    }
  });
});
