import { ConfigurationError } from './errors.ts';

/** Live tokens are `token_<random>`; sandbox tokens `test_token_<random>`. */
export function isLiveToken(token: string): boolean {
  return token.startsWith('token_');
}

export function isSandboxToken(token: string): boolean {
  return token.startsWith('test_token_');
}

/** `Basic base64(token + ':')`: the token is the username and the password is empty. */
export function basicAuthorization(token: string): string {
  const bytes = new TextEncoder().encode(`${token}:`);
  // btoa takes a binary string; going through UTF-8 bytes keeps any token character intact.
  return `Basic ${btoa(String.fromCharCode(...bytes))}`;
}

/**
 * The Request class of a client's openapi-fetch (its `Request` option): every Request is built with the
 * Authorization header, set over any a call passes, before any middleware sees it. A class rather than a middleware
 * because openapi-fetch's middleware pass costs more per call than the header itself; rather than `user:pass@host`
 * in the base URL because `Request` rejects URLs that carry credentials.
 */
export function authorizedRequest(token: string, Base: typeof Request = Request): typeof Request {
  const authorization = basicAuthorization(token);
  return class AuthorizedRequest extends Base {
    constructor(input: RequestInfo | URL, init?: RequestInit) {
      super(input, init);
      this.headers.set('Authorization', authorization);
    }
  };
}

/** Refuses a live token when nothing presents a TLS client certificate: the service would answer 400 anyway. */
export function checkToken(token: string, mutualTls: boolean): void {
  if (typeof token !== 'string' || token.trim() === '') throw new ConfigurationError('An access token is required');
  if (isLiveToken(token) && !mutualTls) {
    throw new ConfigurationError(
      'A live token (token_...) needs a TLS client certificate: use createClient from "@aggregation/client/node" ' +
        'with cert and key, or pass a fetch that presents one together with mutualTls: true',
    );
  }
}
