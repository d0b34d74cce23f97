// The framework floor: the same recorded responses served by a bare Hono app on
// @hono/node-server (the server's framework and adapter), with no middleware, auth, validation
// or storage. The gap between it and the bare node:http limit is the framework's share.
import type { Server } from 'node:http';
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import { replayedHeaders } from '../lib/http.ts';
import { serveReplays } from '../lib/replay-target.ts';

const routes = new Map<string, { status: number; headers: Headers; body: Uint8Array<ArrayBuffer> }>();
const app = new Hono();
app.all('*', (c) => {
  const url = new URL(c.req.url);
  const route = routes.get(url.pathname + url.search);
  if (!route) return c.body(null, 404);
  return new Response(route.body, { status: route.status, headers: route.headers });
});

const server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }) as Server;

await serveReplays(server, routes, (recorded) => ({
  status: recorded.status,
  headers: new Headers(replayedHeaders(recorded)),
  body: new Uint8Array(recorded.body),
}));
