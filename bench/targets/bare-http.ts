// Bare node:http: a node:http server on the same Node answering recorded responses (status, headers, body bytes)
// from memory, by request URL. No routing library, no validation, no storage. Reported beside the limit (bare-net.ts):
// the gap between them is node:http's own parsing and objects per request.
import { createServer, type OutgoingHttpHeaders } from 'node:http';
import { replayedHeaders } from '../lib/http.ts';
import { serveReplays } from '../lib/replay-target.ts';

interface Prepared {
  status: number;
  headers: OutgoingHttpHeaders;
  body: Buffer;
}

const routes = new Map<string, Prepared>();

const server = createServer((request, response) => {
  const route = routes.get(request.url ?? '');
  if (!route) {
    response.writeHead(404, { 'content-length': '0' }).end();
    return;
  }
  response.writeHead(route.status, route.headers).end(route.body);
});
server.listen(0, '127.0.0.1');

await serveReplays(server, routes, (recorded) => {
  const body = Buffer.from(recorded.body);
  const headers: OutgoingHttpHeaders = Object.fromEntries(replayedHeaders(recorded));
  headers['content-length'] = String(body.length);
  return { status: recorded.status, headers, body };
});
