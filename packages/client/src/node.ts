// Node entry point (also what `@aggregation/client` resolves to in Node): everything of the core, plus live requests
// over mutual TLS, and attempts on Node's own fetch timed out by undici rather than by an abort signal
// (node-transport.ts). The TLS client certificate is given to an undici Agent used as the fetch dispatcher; browsers
// and edge runtimes cannot do this from code, which is why it stays out of the core.
import { Agent, getGlobalDispatcher } from 'undici';
import { type AggregationClient, type ClientOptions, createClientWith } from './client.ts';
import { ConfigurationError } from './errors.ts';
import type { FetchLike } from './fetch-like.ts';
import { dispatcherTransport } from './node-transport.ts';
import type { CurrentVersion, Version } from './versions.ts';

export * from './index.ts';

type Pem = string | Uint8Array;

export type MutualTlsOptions = {
  /** Client certificate (PEM) issued to the application. */
  cert: Pem;
  /** Its private key (PEM). */
  key: Pem;
  /** CA certificates to trust for the server, when not the system's. */
  ca?: Pem | Pem[];
  passphrase?: string;
};

export type NodeClientOptions<V extends Version = CurrentVersion> = ClientOptions<V> & Partial<MutualTlsOptions>;

export type NodeAggregationClient<V extends Version = CurrentVersion> = AggregationClient<V> & {
  /** Closes the TLS connections kept open for reuse. */
  close(): Promise<void>;
};

/** A fetch whose connections present the client certificate. Close its agent when done. */
export function createMutualTlsFetch(tls: MutualTlsOptions): { fetch: FetchLike; agent: Agent } {
  const agent = mutualTlsAgent(tls);
  // Node's fetch takes an undici dispatcher as a RequestInit extension.
  const fetch: FetchLike = (request, init) => globalThis.fetch(request, { ...init, dispatcher: agent } as RequestInit);
  return { fetch, agent };
}

function mutualTlsAgent(tls: MutualTlsOptions): Agent {
  return new Agent({
    connect: {
      cert: toPem(tls.cert),
      key: toPem(tls.key),
      ...(tls.ca === undefined ? {} : { ca: Array.isArray(tls.ca) ? tls.ca.map(toPem) : toPem(tls.ca) }),
      ...(tls.passphrase === undefined ? {} : { passphrase: tls.passphrase }),
    },
  });
}

// Where the global fetch is not undici's (another runtime resolving this entry), it would ignore a dispatcher, so
// the core's signal transport stays.
const platform = process.versions.undici ? dispatcherTransport(getGlobalDispatcher) : undefined;

/**
 * Like the core `createClient`; with `cert` and `key` every request goes over mutual TLS, which live tokens
 * (`token_...`) require. A live token without them is refused before any request is sent. Without a custom `fetch`,
 * attempts time out with undici's headers timeout instead of an abort signal (node-transport.ts).
 */
export function createClient<V extends Version = CurrentVersion>(options: NodeClientOptions<V>): NodeAggregationClient<V> {
  const { cert, key, ca, passphrase, ...core } = options;
  if ((cert === undefined) !== (key === undefined)) {
    throw new ConfigurationError('Mutual TLS needs both cert and key');
  }
  if (cert === undefined || key === undefined) {
    const client = createClientWith<V>(core, platform);
    return Object.assign(client, { close: async () => {} });
  }
  if (core.fetch) throw new ConfigurationError('Pass either cert and key or a custom fetch, not both');
  const agent = mutualTlsAgent({
    cert,
    key,
    ...(ca === undefined ? {} : { ca }),
    ...(passphrase === undefined ? {} : { passphrase }),
  });
  const client = createClientWith<V>(
    { ...core, mutualTls: true },
    dispatcherTransport(() => agent),
  );
  return Object.assign(client, { close: () => agent.close() });
}

function toPem(value: Pem): string {
  return typeof value === 'string' ? value : new TextDecoder().decode(value);
}
