// What the replaying targets (the node:net limit, bare node:http, the bare Hono floor) share: a loopback server that
// learns the responses to replay, by URL, from the parent.
import type { AddressInfo, Server } from 'node:net';
import type { RecordedResponse } from './http.ts';
import { serveParent } from './worker-side.ts';

/** Waits for `server` to listen, then keeps each response the parent records in `routes`, as `prepare` makes it. */
export async function serveReplays<T>(server: Server, routes: Map<string, T>, prepare: (recorded: RecordedResponse) => T): Promise<void> {
  if (!server.listening) await new Promise((resolve) => server.once('listening', resolve));
  const { port } = server.address() as AddressInfo;
  serveParent(
    { url: `http://127.0.0.1:${port}`, pid: process.pid },
    {
      record: (payload) => {
        for (const [url, recorded] of Object.entries(payload as Record<string, RecordedResponse>)) routes.set(url, prepare(recorded));
        return routes.size;
      },
    },
    () => new Promise<void>((resolve) => server.close(() => resolve())),
  );
}
