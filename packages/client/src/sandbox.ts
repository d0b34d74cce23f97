// The sandbox control API (its own document): enrollments, clock, webhook settings, events. It replaces the
// enrollment widget and the dashboard in tests, so it is typed like the main API but kept separate from it.

import type { paths as SandboxPaths } from '@aggregation/types/sandbox';
import createFetchClient, { type Client } from 'openapi-fetch';
import { authorizedRequest, isLiveToken } from './auth.ts';
import { DEFAULT_BASE_URL } from './client.ts';
import { ConfigurationError } from './errors.ts';
import type { FetchLike } from './fetch-like.ts';

export type { SandboxPaths };

export type SandboxClientOptions = {
  /** A sandbox token (`test_token_...`); only `POST /sandbox/applications` and `POST /sandbox/enrollments` work without one. */
  token?: string;
  /**
   * An application key (`test_app_key_...`, from `POST /sandbox/applications`): `POST /sandbox/enrollments` then
   * creates enrollments of that application. Sent like a token; give one or the other.
   */
  applicationKey?: string;
  baseUrl?: string;
  fetch?: FetchLike;
};

/** The openapi-fetch client of the sandbox control API, with Basic authentication when a token or application key is given. */
export function createSandboxClient(options: SandboxClientOptions = {}): Client<SandboxPaths> {
  if (options.token !== undefined && isLiveToken(options.token)) {
    throw new ConfigurationError('The sandbox control API takes sandbox tokens (test_token_...) only');
  }
  if (options.token !== undefined && options.applicationKey !== undefined) {
    throw new ConfigurationError('Give a sandbox token or an application key, not both');
  }
  const credential = options.token ?? options.applicationKey;
  const given = options.fetch;
  const fetch = async (request: Request) => (given ? given(request) : globalThis.fetch(request));
  return createFetchClient<SandboxPaths>({
    baseUrl: options.baseUrl ?? DEFAULT_BASE_URL,
    fetch,
    ...(credential ? { Request: authorizedRequest(credential) } : {}),
  });
}
