// Streamable HTTP (`--http`): the MCP endpoint at /mcp, stateless (each POST gets a Server and a transport of its own,
// answered as JSON), so that no session is kept and any number of clients can call. Bound to 127.0.0.1 unless told
// otherwise; on a loopback address, requests naming another host (DNS rebinding: a web page that resolves its own name
// to 127.0.0.1) or coming from another origin's page are refused, as MCP's transport specification asks.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { AggregationMcp } from './server.ts';

export const MCP_PATH = '/mcp';

const loopbackNames = new Set(['localhost', '127.0.0.1', '[::1]', '::1']);

export type HttpListener = { url: string; close(): Promise<void> };

/** The hostname of a Host header or an Origin (`localhost:3001`, `http://[::1]:3001`), or undefined if it has none. */
function hostnameOf(value: string, asUrl: boolean): string | undefined {
  try {
    return new URL(asUrl ? value : `http://${value}`).hostname;
  } catch {
    return undefined;
  }
}

/** A JSON-RPC error without an id, as the SDK's transport answers what it refuses. */
function refuse(res: ServerResponse, status: number, message: string, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message }, id: null }));
}

/** Why a request is refused before any MCP handling, or undefined when it may go on. */
function refusal(req: IncomingMessage, loopback: boolean): { status: number; message: string; headers?: Record<string, string> } | undefined {
  const path = new URL(req.url ?? '/', 'http://localhost').pathname;
  if (path !== MCP_PATH) return { status: 404, message: `Not found: the MCP endpoint is ${MCP_PATH}` };
  if (loopback) {
    const host = hostnameOf(req.headers.host ?? '', false);
    if (!host || !loopbackNames.has(host)) return { status: 403, message: `Invalid Host header: ${req.headers.host ?? '(none)'}` };
    const origin = req.headers.origin;
    if (origin !== undefined && !loopbackNames.has(hostnameOf(origin, true) ?? '')) return { status: 403, message: `Invalid Origin header: ${origin}` };
  }
  // Stateless: there is no session to open a stream on (GET) or to end (DELETE).
  if (req.method !== 'POST') return { status: 405, message: `Method not allowed: ${MCP_PATH} takes POST`, headers: { allow: 'POST' } };
  return undefined;
}

/** Serves `mcp` on `host` and `port` (0: any free port); the listener's `url` is the endpoint. */
export async function listenHttp(mcp: AggregationMcp, options: { host: string; port: number }): Promise<HttpListener> {
  const { host } = options;
  const loopback = loopbackNames.has(host) || host.startsWith('127.');
  const server = createServer((req, res) => {
    const refused = refusal(req, loopback);
    if (refused) {
      req.resume();
      refuse(res, refused.status, refused.message, refused.headers);
      return;
    }
    const session = mcp.createServer();
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    res.on('close', () => {
      void transport.close();
      void session.close();
    });
    session
      .connect(transport)
      .then(() => transport.handleRequest(req, res))
      .catch((error: unknown) => {
        mcp.log(`HTTP ${req.method} ${MCP_PATH}: ${error instanceof Error ? error.message : String(error)}`);
        if (!res.headersSent) refuse(res, 500, 'Internal error');
        else res.end();
      });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${port}${MCP_PATH}`;
  if (!loopback) {
    mcp.log(
      `listening on ${host}, not a loopback address: whoever reaches it calls the API with this server's token, and no Host check guards it against DNS rebinding`,
    );
  }
  return {
    url,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
