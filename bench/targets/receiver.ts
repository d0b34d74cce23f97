// A local webhook receiver: a bare node:http server that verifies every request with the
// client's verifyWebhook and counts verified events per type, with the time of the last one, and keeps the ids of
// the events it verified (the soak run checks that every acknowledged event arrived).
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SIGNATURE_HEADER, verifyWebhook } from '@aggregation/client';
import { serveParent } from '../lib/worker-side.ts';

export interface ReceiverStats {
  verified: Record<string, number>;
  failed: number;
  /** Epoch ms of the last verified event. */
  lastAt: number;
}

let secrets: string[] = [];
let stats: ReceiverStats = { verified: {}, failed: 0, lastAt: 0 };
let ids = new Set<string>();

const server = createServer((request, response) => {
  const chunks: Buffer[] = [];
  request.on('data', (chunk: Buffer) => chunks.push(chunk));
  request.on('end', async () => {
    try {
      const event = await verifyWebhook(Buffer.concat(chunks), request.headers[SIGNATURE_HEADER.toLowerCase()] as string | undefined, secrets);
      stats.verified[event.type] = (stats.verified[event.type] ?? 0) + 1;
      stats.lastAt = Date.now();
      ids.add(event.id);
      response.writeHead(204).end();
    } catch {
      stats.failed++;
      response.writeHead(400).end();
    }
  });
});
server.listen(0, '127.0.0.1');
await new Promise((resolve) => server.once('listening', resolve));
const { port } = server.address() as AddressInfo;

serveParent(
  { url: `http://127.0.0.1:${port}/webhooks`, pid: process.pid },
  {
    secrets: (payload) => {
      secrets = payload as string[];
      return secrets.length;
    },
    reset: () => {
      stats = { verified: {}, failed: 0, lastAt: 0 };
      ids = new Set();
      return true;
    },
    stats: () => stats,
    ids: () => [...ids],
  },
  () => new Promise<void>((resolve) => server.close(() => resolve())),
);
