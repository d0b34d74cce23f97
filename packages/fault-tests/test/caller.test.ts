// The suite's caller (src/api.ts) on a loaded machine: a server closes a connection it kept alive once it has been idle
// for its keep-alive time, and a starved client can send its next request on that connection just as it closes. The
// request then meets a reset, which says nothing of the server under test: the caller does not reuse connections.
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterAll, beforeAll, test } from 'vitest';
import { callerOf } from '../src/api.ts';

// The race, made certain: the server answers a connection's first request and resets the connection when a second
// arrives on it, as one whose keep-alive timer fired before it read that request does.
const answered = new WeakSet<Socket>();
const server = createServer((request, response) => {
  if (answered.has(request.socket)) {
    request.socket.resetAndDestroy();
    return;
  }
  answered.add(request.socket);
  response.end('{}');
});

beforeAll(async () => {
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
});
afterAll(() => {
  server.closeAllConnections();
  server.close();
});

test('a request after another is not sent on a connection the server may be closing', async () => {
  const call = callerOf(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
  for (let attempt = 0; attempt < 3; attempt++) assert.equal((await call('POST', '/', { json: {} })).status, 200);
});
