// A recording proxy in front of the server under test for the whole run: every suite sends its requests through it, so
// that the coverage counts all of them and the error bodies of every suite are checked against the declared codes.
// Answers pass through unchanged and streamed (the request log streams until the reader leaves).
import { once } from 'node:events';
import { createServer, Agent as HttpAgent, request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import type { AddressInfo } from 'node:net';
import { pipeline } from 'node:stream/promises';
import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';

export type Exchange = {
  method: string;
  /** The path without the query. */
  path: string;
  url: string;
  requestHeaders: Record<string, string>;
  requestBody: string;
  status: number;
  responseHeaders: Record<string, string>;
  /** The answer's body when it is an error (status 400 or more) or answers a write (any method but GET, HEAD and
   * OPTIONS: their answers are small, and say what was made), at most `answerBodyLimit` characters. */
  answerBody?: string;
  /** When the request arrived and when its answer was written (or its connection closed), in ms on one monotonic clock. */
  receivedAt: number;
  answeredAt?: number;
  /** Which client connection it came on (requests on one keep-alive connection were sent one after the other). */
  connection: number;
  /** The answer was made here instead of by the server (a fault round): what made it. */
  injected?: string;
  /** The server answered, but the connection was closed before the answer reached the client (a fault round). */
  lost?: boolean;
  /** The server's answer body, kept for answers that were lost (the client never saw it). */
  lostBody?: string;
};

/** What the recorder's owner may do with a request before it goes on: answer it here, or lose the server's answer. */
export type Interception =
  | { answer: { status: number; headers: Record<string, string>; body: string }; by: string }
  | { loseAnswer: (status: number) => boolean; by: string };

export type RecorderOptions = {
  /** Decides, per request, whether the server answers it (undefined), this answer does, or the answer is lost. */
  intercept?: (exchange: Exchange) => Interception | undefined;
  /** Headers added to the request on its way to the server (not recorded: they are not the client's). */
  upstreamHeaders?: (exchange: Exchange) => Record<string, string> | undefined;
  /** Called with each exchange once its answer was written or lost. */
  onAnswered?: (exchange: Exchange) => void;
};

export type Recorder = { url: string; exchanges: Exchange[]; close(): Promise<void> };

/** Milliseconds on a monotonic clock, comparable across exchanges. */
export const monotonicNow = (): number => performance.timeOrigin + performance.now();

/** Headers that belong to one connection, not to the request or answer they travel with. */
const hopByHop = new Set(['connection', 'keep-alive', 'transfer-encoding', 'upgrade', 'proxy-connection', 'te', 'trailer', 'host', 'content-length']);
const answerBodyLimit = 64 * 1024;
const reads = new Set(['GET', 'HEAD', 'OPTIONS']);
/** Whether the exchange's answer body is kept (see `Exchange.answerBody`). */
const keepsBody = (exchange: Exchange) => exchange.status >= 400 || !reads.has(exchange.method);

const headersOf = (headers: IncomingMessage['headers']): Record<string, string> =>
  Object.fromEntries(
    Object.entries(headers).flatMap(([name, value]) => (value === undefined ? [] : [[name, Array.isArray(value) ? value.join(', ') : value]])),
  );

/** An answer's body as text, whatever its content encoding. */
function decoded(body: Buffer, encoding: string | undefined): string {
  try {
    if (encoding === 'gzip' || encoding === 'x-gzip') return gunzipSync(body).toString('utf8');
    if (encoding === 'br') return brotliDecompressSync(body).toString('utf8');
    if (encoding === 'deflate') return inflateSync(body).toString('utf8');
  } catch {
    return `(a ${encoding} body that does not decode)`;
  }
  return body.toString('utf8');
}

/** The request's body, read with events (an async iterator costs more per request than the proxying itself). */
function readBody(request: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.once('end', () => resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks)));
    request.once('error', reject);
  });
}

export async function startRecorder(upstream: string, options: RecorderOptions = {}): Promise<Recorder> {
  const exchanges: Exchange[] = [];
  const connections = new WeakMap<object, number>();
  let nextConnection = 0;
  const base = new URL(upstream.replace(/\/+$/, ''));
  const send = base.protocol === 'https:' ? httpsRequest : httpRequest;
  const agent = new (base.protocol === 'https:' ? HttpsAgent : HttpAgent)({ keepAlive: true });

  async function forward(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const body = await readBody(request);
    const headers = Object.fromEntries(Object.entries(headersOf(request.headers)).filter(([name]) => !hopByHop.has(name)));
    const method = request.method ?? 'GET';
    // The path goes on as it came: a URL object would normalize `/accounts/..` into another request.
    const path = `${base.pathname.replace(/\/$/, '')}${request.url ?? '/'}`;
    const exchange: Exchange = {
      method,
      path: (request.url ?? '/').split('?')[0]!,
      url: `${base.origin}${path}`,
      requestHeaders: headers,
      requestBody: body.toString('utf8'),
      status: 0,
      responseHeaders: {},
      receivedAt: monotonicNow(),
      connection: connectionOf(request.socket),
    };
    const answered = () => {
      exchange.answeredAt = monotonicNow();
      options.onAnswered?.(exchange);
    };
    const interception = options.intercept?.(exchange);
    if (interception && 'answer' in interception) {
      exchange.injected = interception.by;
      exchange.status = interception.answer.status;
      exchange.responseHeaders = { ...interception.answer.headers, 'content-length': String(Buffer.byteLength(interception.answer.body)) };
      if (keepsBody(exchange)) exchange.answerBody = interception.answer.body.slice(0, answerBodyLimit);
      exchanges.push(exchange);
      response.writeHead(exchange.status, exchange.responseHeaders).end(interception.answer.body, answered);
      return;
    }
    // node:http rather than fetch: any method (TRACE too) and the body as the server sent it, encoding and all.
    const attempt = (retry: boolean) => {
      const upstreamRequest = send({
        protocol: base.protocol,
        hostname: base.hostname,
        port: base.port,
        path,
        method,
        headers: { ...headers, ...options.upstreamHeaders?.(exchange), 'content-length': String(body.length) },
        agent,
      });
      upstreamRequest.on('error', (error: NodeJS.ErrnoException) => {
        // A kept-alive connection the server closed as this request left on it: the request never arrived, send it
        // again on a new one (Node's advice for `reusedSocket`).
        if (retry && upstreamRequest.reusedSocket && error.code === 'ECONNRESET') return attempt(false);
        if (response.headersSent) return void response.destroy();
        response
          .writeHead(502, { 'content-type': 'text/plain' })
          .end(`the contract tests' recorder could not reach ${base.origin}: ${error.message}`, answered);
      });
      upstreamRequest.on('response', (answer) => {
        exchange.status = answer.statusCode ?? 0;
        exchange.responseHeaders = headersOf(answer.headers);
        exchanges.push(exchange);
        if (interception && 'loseAnswer' in interception && interception.loseAnswer(exchange.status)) {
          // The server did its work; the client never hears of it: read the answer whole, then close the connection.
          const chunks: Buffer[] = [];
          answer.on('data', (chunk: Buffer) => chunks.push(chunk));
          answer.on('end', () => {
            exchange.lost = true;
            exchange.injected = interception.by;
            exchange.lostBody = decoded(Buffer.concat(chunks), answer.headers['content-encoding']).slice(0, answerBodyLimit);
            response.socket?.destroy();
            answered();
          });
          return;
        }
        response.on('finish', answered);
        const passed = Object.fromEntries(Object.entries(answer.headers).filter(([name]) => !hopByHop.has(name) || name === 'content-length'));
        response.writeHead(exchange.status, passed as Record<string, string | string[]>);
        if (keepsBody(exchange)) {
          const chunks: Buffer[] = [];
          answer.on('data', (chunk: Buffer) => chunks.push(chunk));
          answer.on('end', () => {
            exchange.answerBody = decoded(Buffer.concat(chunks), answer.headers['content-encoding']).slice(0, answerBodyLimit);
          });
        }
        // The client may leave before the end (a stream it stopped reading): the upstream answer is dropped with it.
        pipeline(answer, response).catch(() => answer.destroy());
      });
      upstreamRequest.end(body);
    };
    attempt(true);
  }

  const connectionOf = (socket: object): number => {
    let id = connections.get(socket);
    if (id === undefined) {
      id = ++nextConnection;
      connections.set(socket, id);
    }
    return id;
  };

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
        agent.destroy();
      }),
  };
}
