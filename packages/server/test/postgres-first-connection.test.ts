// A starting server's first connection to PostgreSQL: one that times out is tried again, a refused one fails at once.
// The "database" here accepts TCP connections and never answers, as a database too slow to accept them would.
import assert from 'node:assert/strict';
import { createServer, type Socket } from 'node:net';
import { afterAll, beforeAll, test } from 'vitest';
import { createPool } from '../src/storage/postgres/connection.ts';
import { migrate } from '../src/storage/postgres/migrations.ts';

const held: Socket[] = [];
const silent = createServer((socket) => held.push(socket));
let port = 0;

beforeAll(async () => {
  await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
  port = (silent.address() as { port: number }).port;
});
afterAll(() => {
  for (const socket of held) socket.destroy();
  silent.close();
});

test('a connection that times out is tried again, six times in all, then the error is the last timeout', async () => {
  // Timeouts far shorter than the server's 5 s: the attempts are what is tested, not how long each waits.
  const pool = createPool({ url: `postgres://user@127.0.0.1:${port}/db`, max: 1, connectTimeoutMs: 1_000 });
  try {
    await assert.rejects(migrate(pool), /timeout/i);
    assert.equal(held.length, 6);
  } finally {
    await pool.end().catch(() => undefined);
  }
});

test('a refused connection fails at once', async () => {
  const closed = createServer();
  await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
  const refusedPort = (closed.address() as { port: number }).port;
  await new Promise<void>((resolve) => closed.close(() => resolve()));
  const pool = createPool({ url: `postgres://user@127.0.0.1:${refusedPort}/db`, max: 1 });
  try {
    await assert.rejects(migrate(pool), /ECONNREFUSED/);
  } finally {
    await pool.end().catch(() => undefined);
  }
});
