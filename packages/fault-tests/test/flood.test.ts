// Slow clients and a connection flood, on SQLite and PostgreSQL: while idle connections and
// slowloris clients (headers trickled a byte at a time) hold sockets open, normal requests keep
// being answered within a bound. Bounded in connections and seconds; loopback only.
import assert from 'node:assert/strict';
import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, test } from 'vitest';
import { describeUnless, storeKinds } from '../../server/test/helpers/stores.ts';
import { type Caller, callerOf, type Enrolled, enroll } from '../src/api.ts';
import { type ServerProcess, startServerProcess } from '../src/server-process.ts';
import { tally } from '../src/tally.ts';

const IDLE = 200;
const SLOW = 100;
const FLOOD_MS = 4_000;
const ANSWER_BOUND_MS = 2_000;

const kinds = await storeKinds();

for (const kind of kinds) {
  describeUnless(kind.skip, `slow clients and a connection flood on ${kind.name}`, () => {
    let server: ServerProcess;
    let call: Caller;
    let enrolled: Enrolled;
    const sockets: Socket[] = [];

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
      });

    test(`${IDLE} idle and ${SLOW} slowloris connections; normal requests answered within ${ANSWER_BOUND_MS} ms`, async () => {
      for (let i = 0; i < IDLE; i++) await open();
      const slow = await Promise.all(Array.from({ length: SLOW }, () => open()));
      for (const socket of slow) socket.write('GET /accounts HTTP/1.1\r\nHost: 127.0.0.1\r\n');
      tally.floodConnections += IDLE + SLOW;
      const trickle = setInterval(() => {
        for (const socket of slow) if (!socket.destroyed) socket.write('X');
      }, 200);
      const slowest: number[] = [];
      const deadline = Date.now() + FLOOD_MS;
      try {
        while (Date.now() < deadline) {
          const started = performance.now();
          const [list, write] = await Promise.all([
            call('GET', `/accounts/${enrolled.checking}/transactions?count=100`, { token: enrolled.token }),
            call('POST', '/sandbox/events', { token: enrolled.token, json: { type: 'webhook.test' } }),
          ]);
          slowest.push(performance.now() - started);
          tally.floodRequests += 2;
          assert.equal(list.status, 200, list.text);
          assert.equal(write.status, 202, write.text);
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
      } finally {
        clearInterval(trickle);
      }
      const worst = Math.max(...slowest);
      assert.ok(worst < ANSWER_BOUND_MS, `the slowest normal request took ${worst.toFixed(0)} ms`);
      assert.ok(slowest.length >= 5, `only ${slowest.length} rounds of normal requests in ${FLOOD_MS} ms`);
      assert.deepEqual(server.errors(), []);
    });
  });
}
