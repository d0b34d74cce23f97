// HTTP over a bare socket, for requests fetch would refuse or normalise (a garbage request line, two
// Content-Length headers, NUL bytes, invalid UTF-8, `..` kept as sent). The reply is read until the
// server closes the connection or the time runs out.
import { connect } from 'node:net';
import { tally } from './tally.ts';

export interface RawReply {
  /** 0 when the server sent nothing before closing or the time ran out. */
  status: number;
  headers: Record<string, string>;
  /** The body, de-chunked. */
  text: string;
  /** The body parsed as JSON, when it is JSON. */
  body: unknown;
}

/**
 * Sends `data` as is on a new connection to 127.0.0.1:`port`; the reply is what came once it is complete or the
 * server closed the connection, however long a loaded machine takes (the server's own limits close a stalled one).
 */
export function sendRaw(port: number, data: string | Buffer): Promise<RawReply> {
  tally.requests++;
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    const finish = () => {
      socket.destroy();
      resolve(parseReply(Buffer.concat(chunks)));
    };
    socket.on('data', (chunk) => {
      chunks.push(chunk);
      // Stop at the end of a complete reply (a server keeps a connection open after a 4xx it can recover from).
      if (complete(Buffer.concat(chunks))) finish();
    });
    socket.on('end', finish);
    socket.on('error', finish);
    socket.write(data);
  });
}

function split(buffer: Buffer): { head: string; body: Buffer } | undefined {
  const end = buffer.indexOf('\r\n\r\n');
  if (end < 0) return undefined;
  return { head: buffer.subarray(0, end).toString('latin1'), body: buffer.subarray(end + 4) };
}

function headersOf(head: string): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const line of head.split('\r\n').slice(1)) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  return headers;
}

function complete(buffer: Buffer): boolean {
  const parts = split(buffer);
  if (!parts) return false;
  const headers = headersOf(parts.head);
  if (headers['content-length'] !== undefined) return parts.body.length >= Number(headers['content-length']);
  if (headers['transfer-encoding'] === 'chunked') return parts.body.includes('0\r\n\r\n');
  return false;
}

function dechunk(body: Buffer): Buffer {
  const out: Buffer[] = [];
  let at = 0;
  for (;;) {
    const lineEnd = body.indexOf('\r\n', at);
    if (lineEnd < 0) break;
    const size = parseInt(body.subarray(at, lineEnd).toString('latin1'), 16);
    if (!(size > 0)) break;
    out.push(body.subarray(lineEnd + 2, lineEnd + 2 + size));
    at = lineEnd + 2 + size + 2;
  }
  return Buffer.concat(out);
}

export function parseReply(buffer: Buffer): RawReply {
  const parts = split(buffer);
  if (!parts) return { status: 0, headers: {}, text: '', body: undefined };
  const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(parts.head)?.[1] ?? 0);
  const headers = headersOf(parts.head);
  const text = (headers['transfer-encoding'] === 'chunked' ? dechunk(parts.body) : parts.body).toString('utf8');
  let body: unknown;
  try {
    body = text === '' ? undefined : JSON.parse(text);
  } catch {
    body = undefined;
  }
  return { status, headers, text, body };
}

/** A request as bytes: the request line, the headers as given, then the body. */
export function rawRequest(method: string, target: string, headers: [string, string][], body: string | Buffer = ''): Buffer {
  const payload = typeof body === 'string' ? Buffer.from(body, 'utf8') : body;
  const lines = [`${method} ${target} HTTP/1.1`, 'Host: 127.0.0.1', 'Connection: close', ...headers.map(([name, value]) => `${name}: ${value}`)];
  return Buffer.concat([Buffer.from(`${lines.join('\r\n')}\r\n\r\n`, 'latin1'), payload]);
}
