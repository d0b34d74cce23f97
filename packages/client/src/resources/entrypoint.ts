// `client.entrypoint()`: `GET /`, where a client that follows links starts.
import type { ApiRequest, CallOptions } from '../request.ts';
import type { CurrentVersion, Entrypoint, Version } from '../versions.ts';

/** `GET /`: links to the top-level collections (`accounts`, `institutions`); needs no token. */
export type EntrypointResource<V extends Version = CurrentVersion> = (options?: CallOptions) => Promise<Entrypoint<V>>;

export function entrypointResource<V extends Version>(request: ApiRequest): EntrypointResource<V> {
  return async (call) => request.read('GET', '/', {}, call);
}
