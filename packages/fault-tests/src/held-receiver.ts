// A webhook receiver on loopback that holds each request until the test answers it: the test sees every attempt
// as it arrives (when, the raw body, the signature), looks at the server meanwhile, then answers with a status or
// breaks the connection. The server's next attempt cannot start before that answer.
import { once } from 'node:events';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Arrival {
  /** performance.now() when its body had arrived. */
  at: number;
  /** Date.now() then, to compare with the times the server logs. */
  wallClock: number;
  raw: string;
  signature: string;
  answer(status: number, body?: string): void;
  /** Destroys the connection without an answer. */
  hangUp(): void;
}

export interface HeldReceiver {
  url: string;
  /** The next request, however long a loaded machine takes to send it. */
  next(): Promise<Arrival>;
  /** Requests that arrived and were not taken with `next()`. */
  waiting(): number;
  close(): Promise<void>;
}

export async function heldReceiver(): Promise<HeldReceiver> {
  const arrived: Arrival[] = [];
  let wake: (() => void) | undefined;
  const server = createServer(async (request: IncomingMessage, response: ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    arrived.push({
      at: performance.now(),
      wallClock: Date.now(),
      raw: Buffer.concat(chunks).toString('utf8'),
      signature: String(request.headers['service-signature'] ?? ''),
      answer: (status, body = '') => response.writeHead(status, { 'content-type': 'text/plain' }).end(body),
      hangUp: () => request.socket.destroy(),
    });
    wake?.();
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks`,
    async next() {
      while (arrived.length === 0) {
        await new Promise<void>((resolve) => {
          wake = resolve;
        });
      }
      return arrived.shift()!;
    },
    waiting: () => arrived.length,
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
