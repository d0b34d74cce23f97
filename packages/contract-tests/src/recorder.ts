// A recording proxy in front of the server under test for the whole run: every suite sends its requests through it, so
// that the coverage counts all of them and the error bodies of every suite are checked against the declared codes.
// Answers pass through unchanged and streamed (the request log streams until the reader leaves).
import { once } from 'node:events';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

export type Exchange = {
  method: string;
  /** The path without the query. */
  path: string;
  url: string;
  requestHeaders: Record<string, string>;
  requestBody: string;
  status: number;
  responseHeaders: Record<string, string>;
  /** The answer's body when it is an error (status 400 or more), at most `errorBodyLimit` characters. */
  errorBody?: string;
};

export type Recorder = { url: string; exchanges: Exchange[]; close(): Promise<void> };

/** Headers that belong to one connection, not to the request or answer they travel with. */
const hopByHop = new Set(['connection', 'keep-alive', 'transfer-encoding', 'upgrade', 'proxy-connection', 'te', 'trailer', 'host', 'content-length']);
const errorBodyLimit = 64 * 1024;

const headersOf = (headers: IncomingMessage['headers']): Record<string, string> =>
  Object.fromEntries(Object.entries(headers).flatMap(([name, value]) => (value === undefined ? [] : [[name, Array.isArray(value) ? value.join(', ') : value]])));

async function readBody(request: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

export async function startRecorder(upstream: string): Promise<Recorder> {
  const exchanges: Exchange[] = [];
  const base = upstream.replace(/\/+$/, '');

  async function forward(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const body = await readBody(request);
    const headers = Object.fromEntries(Object.entries(headersOf(request.headers)).filter(([name]) => !hopByHop.has(name)));
    const method = request.method ?? 'GET';
    const url = `${base}${request.url ?? '/'}`;
    let answer: Response;
    try {
      answer = await fetch(url, { method, headers, redirect: 'manual', ...(body.length && method !== 'GET' && method !== 'HEAD' ? { body: new Uint8Array(body) } : {}) });
    } catch (error) {
      const cause = (error as Error & { cause?: Error }).cause?.message ?? (error as Error).message;
      response.writeHead(502, { 'content-type': 'text/plain' }).end(`the contract tests' recorder could not reach ${base}: ${cause}`);
      return;
    }
    // fetch has decoded the body: the encoding and length headers no longer describe what is sent on.
    const responseHeaders = Object.fromEntries(
      [...answer.headers].filter(([name]) => !hopByHop.has(name) && name !== 'content-encoding'),
    );
    const exchange: Exchange = {
      method,
      path: (request.url ?? '/').split('?')[0]!,
      url,
      requestHeaders: headers,
      requestBody: body.toString('utf8'),
      status: answer.status,
      responseHeaders,
    };
    exchanges.push(exchange);
    response.writeHead(answer.status, responseHeaders);
    if (!answer.body) {
      response.end();
      return;
    }
    if (answer.status >= 400) {
      const text = await answer.text();
      exchange.errorBody = text.slice(0, errorBodyLimit);
      response.end(text);
      return;
    }
    await pipeline(Readable.fromWeb(answer.body as import('node:stream/web').ReadableStream), response).catch(() => {
      // The client left before the end (a stream it stopped reading): nothing to record.
    });
  }

  const server = createServer((request, response) => {
    forward(request, response).catch((error: Error) => {
      if (!response.headersSent) response.writeHead(500, { 'content-type': 'text/plain' });
      response.end(`the contract tests' recorder failed: ${error.message}`);
    });
  });
  server.keepAliveTimeout = 60_000;
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    exchanges,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
