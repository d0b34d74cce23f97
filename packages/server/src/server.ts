// Serves the app over HTTP, or HTTPS with a client CA (live tokens then need a client
// certificate signed by it). Closing is graceful: no new connections, requests in flight
// finish, the delivery worker stops, the store closes.
import { createServer as createHttpServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { getRequestListener, RequestError } from '@hono/node-server';
import { type App, type AppOptions, createApp } from './app.ts';
import { answerClientError, unbuildableRequest } from './http/client-error.ts';
import { closeLingering } from './http/lingering-close.ts';

export interface TlsOptions {
  key: string | Buffer;
  cert: string | Buffer;
  /** CA that signs the developers' client certificates. */
  clientCa?: string | Buffer;
}

export interface ServerOptions extends AppOptions {
  port?: number;
  hostname?: string;
  tls?: TlsOptions;
  /** Longest wait for requests in flight when closing (default 10 s). */
  shutdownTimeoutMs?: number;
}

export interface RunningServer {
  app: App;
  server: Server;
  /** Base URL the server listens on. */
  url: string;
  close(): Promise<void>;
}

export async function startServer(options: ServerOptions = {}): Promise<RunningServer> {
  const app = createApp(options);
  // Listen only once the store can serve: an unreachable database fails the start, not each request.
  try {
    await app.store.ready();
  } catch (error) {
    await app.close();
    throw error;
  }
  const tls = options.tls;
  const toApp = getRequestListener(app.fetch, {
    // A request the adapter cannot turn into a Request (a backslash in the path, a bad Host) never reaches the app:
    // it is answered here, in the error shape every other refusal has.
    errorHandler: (error) => (error instanceof RequestError ? unbuildableRequest(error) : undefined),
  });
  // Replayed reads and ordinary transactions pages are written before the adapter builds a Request for the app.
  const { servePage } = app;
  const serve = servePage
    ? (incoming: IncomingMessage, outgoing: ServerResponse) => servePage(incoming, outgoing, () => void toApp(incoming, outgoing))
    : (incoming: IncomingMessage, outgoing: ServerResponse) => void toApp(incoming, outgoing);
  const listener = (incoming: IncomingMessage, outgoing: ServerResponse) => {
    app.serveCached(incoming, outgoing, () => serve(incoming, outgoing));
  };
  const server: Server = tls
    ? createHttpsServer(
        {
          key: tls.key,
          cert: tls.cert,
          ...(tls.clientCa ? { ca: tls.clientCa, requestCert: true, rejectUnauthorized: false } : {}),
        },
        listener,
      )
    : createHttpServer(listener);
  server.on('clientError', answerClientError);
  closeLingering(server);
  // Loopback unless asked: the sandbox's enrollment endpoint needs no credentials.
  const hostname = options.hostname ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 3000, hostname, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const url = `${tls ? 'https' : 'http'}://${hostname === '0.0.0.0' || hostname === '::' ? 'localhost' : hostname}:${port}`;
  // Without PUBLIC_URL, the links in webhook payloads point where this server answers (its port included).
  if (options.publicUrl === undefined) app.runtime.publicUrl = url;

  let closing: Promise<void> | undefined;
  const close = () =>
    (closing ??= (async () => {
      const drained = new Promise<void>((resolve) => server.close(() => resolve()));
      // Open log streams never end by themselves: end them first so that they do not hold the close up.
      app.requestLog.close();
      // Keep-alive connections become idle as their last response ends: close them as they do.
      server.closeIdleConnections();
      const sweeper = setInterval(() => server.closeIdleConnections(), 50);
      const timeout = new Promise<void>((resolve) => setTimeout(resolve, options.shutdownTimeoutMs ?? 10_000).unref());
      await Promise.race([drained, timeout]);
      clearInterval(sweeper);
      server.closeAllConnections();
      await app.close();
    })());
  return { app, server, url, close };
}
