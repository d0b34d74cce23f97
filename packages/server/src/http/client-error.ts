// Node's HTTP parser refuses some requests before the app sees them (a garbage request line, a
// duplicate Content-Length, headers over the size limit), and the adapter refuses others it cannot
// turn into a Request (a backslash in the path). They are answered here, in the error shape every
// other failure has; after a parser error the connection is closed: what follows cannot be parsed.
import type { Duplex } from 'node:stream';
import type { SentErrorCode } from '../domain/errors.ts';

interface ClientFailure {
  status: number;
  reason: string;
  code: SentErrorCode;
  message: string;
}

function failureOf(error: NodeJS.ErrnoException): ClientFailure {
  switch (error.code) {
    case 'HPE_HEADER_OVERFLOW':
      return {
        status: 431,
        reason: 'Request Header Fields Too Large',
        code: 'request_headers_too_large',
        message: 'The request headers are too large.',
      };
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return { status: 408, reason: 'Request Timeout', code: 'request_timeout', message: 'The request was not received in time.' };
    default:
      return { status: 400, reason: 'Bad Request', code: 'bad_request', message: 'The request is not valid HTTP/1.1.' };
  }
}

/** The `clientError` listener of a Node HTTP(S) server. */
export function answerClientError(error: NodeJS.ErrnoException, socket: Duplex): void {
  // A reset or a half-written response has nobody left to answer.
  if (error.code === 'ECONNRESET' || !socket.writable) {
    socket.destroy();
    return;
  }
  const failure = failureOf(error);
  const body = JSON.stringify({ error: { code: failure.code, message: failure.message } });
  socket.end(
    `HTTP/1.1 ${failure.status} ${failure.reason}\r\n` +
      'Content-Type: application/json\r\n' +
      `Content-Length: ${Buffer.byteLength(body)}\r\n` +
      'Connection: close\r\n\r\n' +
      body,
  );
}

/** The answer to a request the Node adapter could not build (its `RequestError`): 400 in the error shape. */
export function unbuildableRequest(error: Error): Response {
  const code: SentErrorCode = 'bad_request';
  return Response.json({ error: { code, message: `The request cannot be read: ${error.message}.` } }, { status: 400 });
}
