// The limit: the fastest way this Node answers the server's bytes. A node:net server reads each request's head
// (and skips a body by its Content-Length), finds the response prepared for its URL and writes it in one buffer:
// status line, the recorded headers, Date and keep-alive as node:http sends them, and the body. No HTTP parser and
// no objects per request, on the same keep-alive connections: what any HTTP server on this Node pays at least.
import { STATUS_CODES } from 'node:http';
import { createServer, type Socket } from 'node:net';
import { replayedHeaders } from '../lib/http.ts';
import { serveReplays } from '../lib/replay-target.ts';

interface Prepared {
  bytes: Buffer;
  /** Where the Date header's value is in `bytes`, and the second it was last written for. */
  dateAt: number;
  second: number;
}

const HEAD_END = Buffer.from('\r\n\r\n');
const NOT_FOUND = Buffer.from('HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n');
const DATE_PLACEHOLDER = new Date(0).toUTCString();
const CONTENT_LENGTH = /\r\ncontent-length:[ \t]*(\d+)/i;

const routes = new Map<string, Prepared>();

// Node's HTTP server writes Date once per second from a cached string; so does this one, in place.
let second = 0;
let date = DATE_PLACEHOLDER;
function stamped(route: Prepared): Buffer {
  const now = Date.now();
  const current = Math.floor(now / 1000);
  if (current !== second) {
    second = current;
    date = new Date(now).toUTCString();
  }
  if (route.second !== second) {
    route.bytes.write(date, route.dateAt, 'latin1');
    route.second = second;
  }
  return route.bytes;
}

function serve(socket: Socket): void {
  socket.setNoDelay(true);
  let pending: Buffer | undefined;
  let bodyLeft = 0;
  socket.on('data', (chunk: Buffer) => {
    const data = pending ? Buffer.concat([pending, chunk]) : chunk;
    pending = undefined;
    let at = 0;
    while (at < data.length) {
      if (bodyLeft > 0) {
        const skipped = Math.min(bodyLeft, data.length - at);
        bodyLeft -= skipped;
        at += skipped;
        continue;
      }
      const end = data.indexOf(HEAD_END, at);
      if (end < 0) {
        pending = data.subarray(at);
        break;
      }
      const head = data.toString('latin1', at, end);
      at = end + HEAD_END.length;
      const pathStart = head.indexOf(' ') + 1;
      const url = head.slice(pathStart, head.indexOf(' ', pathStart));
      if (!head.startsWith('GET ')) bodyLeft = Number(CONTENT_LENGTH.exec(head)?.[1] ?? 0);
      const route = routes.get(url);
      socket.write(route ? stamped(route) : NOT_FOUND);
    }
  });
  socket.on('error', () => socket.destroy());
}

const server = createServer(serve);
server.listen(0, '127.0.0.1');

await serveReplays(server, routes, (recorded) => {
  const body = Buffer.from(recorded.body);
  const lines = [
    `HTTP/1.1 ${recorded.status} ${STATUS_CODES[recorded.status] ?? ''}`,
    ...replayedHeaders(recorded).map(([name, value]) => `${name}: ${value}`),
    `content-length: ${body.length}`,
    `Date: ${DATE_PLACEHOLDER}`,
    'Connection: keep-alive',
    'Keep-Alive: timeout=5',
  ];
  const head = `${lines.join('\r\n')}\r\n\r\n`;
  const dateAt = Buffer.byteLength(head.slice(0, head.indexOf(`Date: ${DATE_PLACEHOLDER}`) + 'Date: '.length), 'latin1');
  return { bytes: Buffer.concat([Buffer.from(head, 'latin1'), body]), dateAt, second: -1 };
});
