// A lingering close, as nginx and Apache do it. When a response closes its connection (the client sent
// `Connection: close`, or HTTP/1.0) while the client is still sending the request's body (a 413 for a body past the
// limit is answered from the headers), closing the socket at once with unread bytes makes the kernel send a reset,
// which can overtake the response: the client sees a reset connection, not the answer. So the server sends its FIN
// after the response and reads and drops what still comes, until the client closes its side, goes quiet, or a bound
// passes; only then is the socket destroyed.
import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import { Server as TlsServer } from 'node:tls';

/** How long the client may stay quiet while the server waits for it to close. */
export const LINGER_IDLE_MS = 5_000;
/** How long a closing connection may be kept at most, however the client sends. */
export const LINGER_MAX_MS = 30_000;

/** Destroys the socket once its own writes (the response, then the FIN) have gone out. */
function destroyWhenWritten(socket: Socket): void {
  if (socket.writableFinished) socket.destroy();
  else socket.once('finish', () => socket.destroy());
}

/** Node's HTTP server closes a connection after its last response with `socket.destroySoon()`: this is its lingering form. */
function lingeringDestroySoon(this: Socket): void {
  if (this.writable) this.end();
  if (!this.readable || this.readableEnded) {
    destroyWhenWritten(this);
    return;
  }
  let done = false;
  const close = () => {
    if (done) return;
    done = true;
    clearTimeout(bound);
    destroyWhenWritten(this);
  };
  const bound = setTimeout(close, LINGER_MAX_MS);
  bound.unref();
  this.setTimeout(LINGER_IDLE_MS, close);
  this.once('end', close);
  this.once('close', () => clearTimeout(bound));
  // The HTTP parser drops the rest of an unread body; anything past it is read and dropped here.
  this.resume();
}

/** Every connection of `server` closes with a lingering close. */
export function closeLingering(server: Server): void {
  // Over TLS the HTTP layer closes the TLS socket, which `secureConnection` gives ('connection' gives the TCP one).
  const event = server instanceof TlsServer ? 'secureConnection' : 'connection';
  server.on(event, (socket: Socket) => {
    (socket as Socket & { destroySoon(): void }).destroySoon = lingeringDestroySoon;
  });
}
