import type { Middleware } from 'openapi-fetch';
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
 * Adds the Authorization header to every request. A middleware rather than `user:pass@host` in the base URL,
 * because `Request` rejects URLs that carry credentials.
 */
export function authMiddleware(token: string): Middleware {
  const authorization = basicAuthorization(token);
  return {
    onRequest({ request }) {
      request.headers.set('Authorization', authorization);
      return request;
    },
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
