// An HTTP server on 127.0.0.1 for the timeout tests: `handle` answers a request, or holds it by leaving it be. Every
// request is noted as it arrives, and so is the closing of its connection, so a test can tell that a timed-out or
// aborted request was dropped by the client rather than left running.
import { EventEmitter, once } from 'node:events';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ConnectionError } from '../../src/index.ts';

export type Arrival = { url: string; headers: IncomingMessage['headers']; body: string };

export type Loopback = {
  origin: string;
  arrivals: Arrival[];
  /** Resolves once `count` requests have arrived, with their arrivals. */
  arrived(count?: number): Promise<Arrival[]>;
  /** Resolves once the connections of `count` requests have closed. */
  closed(count?: number): Promise<void>;
  close(): void;
};

/** Holds every request unless `handle` is given. */
export async function startLoopback(handle: (request: IncomingMessage, response: ServerResponse, index: number) => void = () => {}): Promise<Loopback> {
  const events = new EventEmitter();
  const arrivals: Arrival[] = [];
  let closes = 0;
  const server = createServer(async (request, response) => {
    request.socket.once('close', () => events.emit('closed', ++closes));
    let body = '';
    for await (const chunk of request) body += chunk;
    const index = arrivals.push({ url: request.url ?? '', headers: request.headers, body }) - 1;
    events.emit('arrived', arrivals.length);
    handle(request, response, index);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const until = async (event: string, reached: () => boolean) => {
    while (!reached()) await once(events, event);
  };
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    arrivals,
    arrived: async (count = 1) => {
      await until('arrived', () => arrivals.length >= count);
      return arrivals;
    },
    closed: (count = 1) => until('closed', () => closes >= count),
    close: () => {
      server.closeAllConnections();
      server.close();
    },
  };
}

/** Checks that an attempt timed out through undici's headers timeout (Node's fetch), not through a signal. */
export const headersTimedOut = (ms: number, what: string) => (error: Error) =>
  error instanceof ConnectionError &&
  error.message === `No response within ${ms} ms: ${what}` &&
  (error.cause as { cause?: { code?: string } }).cause?.code === 'UND_ERR_HEADERS_TIMEOUT';
