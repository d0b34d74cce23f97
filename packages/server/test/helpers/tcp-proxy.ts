// A TCP proxy in front of a server, to make it unreachable and bring it back: `cut()` closes
// every connection and stops listening (new connections are refused), `restore()` listens
// again on the same port. `hold()` keeps what the server sends from reaching the clients, in
// order, until `release()`: a slow network, without a clock.

import type { AddressInfo } from 'node:net';
import { connect, createServer, type Server, type Socket } from 'node:net';

export interface TcpProxy {
  port: number;
  cut(): Promise<void>;
  restore(): Promise<void>;
  hold(): void;
  release(): void;
  close(): Promise<void>;
}

export async function tcpProxy(host: string, port: number): Promise<TcpProxy> {
  const sockets = new Set<Socket>();
  const track = (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => socket.destroy());
  };
  let server: Server | undefined;
  /** What the server sent while held, in order, with the client it goes to. */
  let held: [Socket, Buffer][] | undefined;
  const listen = (at: number) =>
    new Promise<number>((resolve, reject) => {
      server = createServer((client) => {
        const upstream = connect(port, host);
        track(client);
        track(upstream);
        client.pipe(upstream);
        upstream.on('data', (chunk: Buffer) => (held ? held.push([client, chunk]) : client.write(chunk)));
        client.on('close', () => upstream.destroy());
        upstream.on('close', () => client.destroy());
      });
      server.once('error', reject);
      server.listen(at, '127.0.0.1', () => resolve((server!.address() as AddressInfo).port));
    });
  const stop = async () => {
    const closing = server;
    server = undefined;
    if (!closing) return;
    const closed = new Promise<void>((resolve) => closing.close(() => resolve()));
    for (const socket of sockets) socket.destroy();
    await closed;
  };
  const proxyPort = await listen(0);
  return {
    port: proxyPort,
    cut: stop,
    restore: async () => {
      if (!server) await listen(proxyPort);
    },
    hold: () => {
      held ??= [];
    },
    release: () => {
      const chunks = held ?? [];
      held = undefined;
      for (const [client, chunk] of chunks) if (!client.destroyed) client.write(chunk);
    },
    close: stop,
  };
}
