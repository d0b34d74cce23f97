// Slow clients and a connection flood, on SQLite and PostgreSQL: while idle connections and
// slowloris clients (headers trickled a byte at a time) hold sockets open, normal requests keep
// being answered. The verdict is that they are answered while the flood still holds its sockets,
// not how fast: a loaded machine makes every request slow. Bounded in connections and rounds;
// loopback only.
import assert from 'node:assert/strict';
import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, test } from 'vitest';
import { describeUnless, storeKinds } from '../../server/test/helpers/stores.ts';
import { type Caller, callerOf, type Enrolled, enroll } from '../src/api.ts';
import { type ServerProcess, startServerProcess } from '../src/server-process.ts';
import { tally } from '../src/tally.ts';

const IDLE = 200;
const SLOW = 100;
const ROUNDS = 5;

const kinds = await storeKinds();

for (const kind of kinds) {
  describeUnless(kind.skip, `slow clients and a connection flood on ${kind.name}`, () => {
    let server: ServerProcess;
    let call: Caller;
    let enrolled: Enrolled;
    const sockets: Socket[] = [];
    /** The flood's connections the server closed. */
    const closed = new Set<Socket>();

    beforeAll(async () => {
      server = await startServerProcess(await kind.location());
      call = callerOf(server.url);
      enrolled = await enroll(call);
    });
    afterAll(async () => {
      for (const socket of sockets) socket.destroy();
      await server?.stop();
    });

    const open = () =>
      new Promise<Socket>((resolve, reject) => {
        const socket = connect(server.port, '127.0.0.1', () => resolve(socket));
        socket.on('error', reject);
        sockets.push(socket);
        socket.on('close', () => closed.add(socket));
      });

    test(`${IDLE} idle and ${SLOW} slowloris connections; normal requests answered while they hold their sockets`, async () => {
      for (let i = 0; i < IDLE; i++) await open();
      const slow = await Promise.all(Array.from({ length: SLOW }, () => open()));
      for (const socket of slow) socket.write('GET /accounts HTTP/1.1\r\nHost: 127.0.0.1\r\n');
      tally.floodConnections += IDLE + SLOW;
      const trickle = setInterval(() => {
        for (const socket of slow) if (!socket.destroyed) socket.write('X');
      }, 200);
      try {
        for (let round = 0; round < ROUNDS; round++) {
          const [list, write] = await Promise.all([
            call('GET', `/accounts/${enrolled.checking}/transactions?count=100`, { token: enrolled.token }),
            call('POST', '/sandbox/events', { token: enrolled.token, json: { type: 'webhook.test' } }),
          ]);
          tally.floodRequests += 2;
          assert.equal(list.status, 200, list.text);
          assert.equal(write.status, 202, write.text);
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
      } finally {
        clearInterval(trickle);
      }
      // Answered while the flood held: the server made room by no other means than serving them.
      assert.equal(closed.size, 0, `${closed.size} of the flood's connections closed before the normal requests were answered`);
      assert.deepEqual(server.errors(), []);
    });
  });
}
