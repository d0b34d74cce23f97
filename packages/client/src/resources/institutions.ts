// `client.institutions`: the institutions users can connect.
import type { ApiRequest, CallOptions } from '../request.ts';
import type { CurrentVersion, Institution, Version } from '../versions.ts';

export type InstitutionsResource<V extends Version = CurrentVersion> = {
  list(options?: CallOptions): Promise<Institution<V>[]>;
};

export function institutionsResource<V extends Version>(request: ApiRequest): InstitutionsResource<V> {
  return {
    list: async (call) => request.read('GET', '/institutions', {}, call),
  };
}
