// A broken server: a proxy in front of the real one that rewrites requests or answers in one way. The Host header is
// passed on, so that the links the server writes name the proxy and every request of a run goes through the break.
import { once } from 'node:events';
import { createServer, request as httpRequest, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export type Sent = { method: string; url: URL; headers: IncomingHttpHeaders; body: Buffer };
export type Answered = { status: number; headers: Record<string, string | string[] | undefined>; body: Buffer };

export type Break = {
  /** Changes the request before the server sees it. */
  request?(sent: Sent): void;
  /** Changes the answer before the client sees it. */
  response?(sent: Sent, answered: Answered): void;
};

export type Running = { url: string; close(): Promise<void> };

const dropped = new Set(['content-length', 'transfer-encoding', 'connection', 'keep-alive']);

export async function startBrokenServer(upstream: string, broken: Break): Promise<Running> {
  const base = new URL(upstream);
  const forward = async (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    // The path is sent on as it came (a URL object would normalize `/a/../b`); only the query may be changed.
    const [rawPath = '/', rawQuery] = (req.url ?? '/').split(/\?(.*)/s);
    const sent: Sent = {
      method: req.method ?? 'GET',
      url: new URL(req.url ?? '/', 'http://proxy'),
      headers: { ...req.headers },
      body: Buffer.concat(chunks),
    };
    const query = sent.url.search;
    broken.request?.(sent);
    const path = `${rawPath}${sent.url.search === query ? (rawQuery === undefined ? '' : `?${rawQuery}`) : sent.url.search}`;
    const headers = Object.fromEntries(Object.entries(sent.headers).filter(([name]) => !dropped.has(name)));
    const upstream = httpRequest(
      // A connection per request: no kept-alive socket the server may close under a request.
      {
        host: base.hostname,
        port: base.port,
        method: sent.method,
        path,
        headers: { ...headers, 'content-length': String(sent.body.length) },
        agent: false,
      },
      async (answer) => {
        const body: Buffer[] = [];
        for await (const chunk of answer) body.push(chunk as Buffer);
        const answered: Answered = { status: answer.statusCode ?? 502, headers: { ...answer.headers }, body: Buffer.concat(body) };
        broken.response?.(sent, answered);
        const out = Object.fromEntries(Object.entries(answered.headers).filter(([name, value]) => !dropped.has(name) && value !== undefined));
        res.writeHead(answered.status, { ...out, 'content-length': String(answered.body.length) } as Record<string, string>).end(answered.body);
      },
    );
    upstream.on('error', (error) => res.writeHead(502).end(error.message));
    upstream.end(sent.body);
  };
  const server = createServer((req, res) => {
    forward(req, res).catch((error: Error) => {
      if (!res.headersSent) res.writeHead(502);
      res.end(`the broken server's proxy failed: ${error.message}`);
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The answer's JSON body, changed by `edit`, when it is JSON; the content type is kept. */
export function editJson(answered: Answered, edit: (body: unknown) => unknown): void {
  if (!String(answered.headers['content-type'] ?? '').includes('json') || answered.headers['content-encoding']) return;
  let body: unknown;
  try {
    body = JSON.parse(answered.body.toString('utf8'));
  } catch {
    return;
  }
  answered.body = Buffer.from(JSON.stringify(edit(body) ?? body));
}

/**
 * A break of the JSON answers to `method` requests whose path matches `path`: `edit` changes the parsed body in place,
 * or returns the body to answer instead.
 */
export function editAnswers(
  method: string,
  path: RegExp,
  edit: (body: unknown, sent: Sent, answered: Answered) => unknown,
): NonNullable<Break['response']> {
  return (sent, answered) => {
    if (sent.method === method && path.test(sent.url.pathname)) editJson(answered, (body) => edit(body, sent, answered) ?? body);
  };
}
