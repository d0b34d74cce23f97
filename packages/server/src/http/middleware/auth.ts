// Authentication: the access token (HTTP Basic username, or the raw Authorization value of the
// older description's form, in every version) names the enrollment, and with it the application
// (whose default version serves requests without Service-Version); live tokens also need the
// certificate. Bringing the enrollment up to date is the next step (enrollment-sync.ts).
import type { IncomingMessage } from 'node:http';
import type { TLSSocket } from 'node:tls';
import type { MiddlewareHandler } from 'hono';
import { LRUCache } from 'lru-cache';
import { versionOf } from '../../domain/applications.ts';
import { findEnrollmentByTokenHash, usableEnrollment } from '../../domain/enrollments.ts';
import { ApiError, badRequest, forbidden } from '../../domain/errors.ts';
import { hashToken, isLiveToken } from '../../domain/ids.ts';
import type { AppContext, AppEnv, Runtime } from '../env.ts';
import type { TokenReads } from '../known-tokens.ts';
import { addressCaller, countedRequests, enrollmentCaller, limitRate } from './rate-limit.ts';
import { useApplicationVersion } from './version.ts';

export const tokenOf = (c: AppContext): string | undefined => tokenIn(c.req.header('authorization'));

/** The access token an Authorization header value carries. */
export function tokenIn(authorization: string | undefined): string | undefined {
  const header = authorization?.trim();
  if (!header) return undefined;
  const basic = /^basic\s+(\S+)$/i.exec(header);
  if (basic) {
    const decoded = Buffer.from(basic[1]!, 'base64').toString('utf8');
    const user = decoded.includes(':') ? decoded.slice(0, decoded.indexOf(':')) : decoded;
    return user || undefined;
  }
  if (/^(test_)?token_[A-Za-z0-9]+$/.test(header)) return header;
  return undefined;
}

/** An Authorization value's access token, and the token's hash, by which its enrollment is found. */
export interface Credential {
  token: string;
  tokenHash: string;
}

/** Authorization values kept with what they name: a client sends the same one on each request. */
const MAX_CREDENTIALS = 2_000;
/** Longer values are read each time: tokens are far shorter, and what is kept stays within about two megabytes. */
const MAX_KEPT_AUTHORIZATION_LENGTH = 256;
/** Each value's credential, or false when it names no token: both depend on the value alone. */
const credentials = new LRUCache<string, Credential | false>({ max: MAX_CREDENTIALS });

/** The credential an Authorization header value carries (`tokenIn`), decoded and hashed once per value kept. */
export function credentialIn(authorization: string | undefined): Credential | undefined {
  if (authorization === undefined) return undefined;
  let known = credentials.get(authorization);
  if (known === undefined) {
    const token = tokenIn(authorization);
    known = token === undefined ? false : Object.freeze({ token, tokenHash: hashToken(token) });
    if (authorization.length <= MAX_KEPT_AUTHORIZATION_LENGTH) credentials.set(authorization, known);
  }
  return known || undefined;
}

/** The TLS client certificate was presented and verified against the client CA. */
export function hasClientCertificate(c: AppContext): boolean {
  const socket = c.env?.incoming?.socket as TLSSocket | undefined;
  return socket?.encrypted === true && socket.authorized === true;
}

export interface AuthOptions {
  /** The sandbox control API: sandbox tokens only. */
  sandboxOnly?: boolean;
}

/** The token's enrollment and its application, read or kept (known-tokens.ts). */
export function tokenReads(runtime: Runtime, { tokenHash }: Credential, incoming: IncomingMessage | undefined): Promise<TokenReads | undefined> {
  return runtime.knownTokens.find(tokenHash, incoming, () => findEnrollmentByTokenHash(runtime.deps, tokenHash));
}

export function authenticate(runtime: Runtime, options: AuthOptions = {}): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const credential = credentialIn(c.req.header('authorization'));
    const token = credential?.token;
    const incoming = c.env?.incoming;
    const reads = credential === undefined ? undefined : await tokenReads(runtime, credential, incoming);
    const found = reads?.enrollment;
    // Counted before anything else is checked or done: failures count too, against the client address.
    if (!incoming || !countedRequests.has(incoming)) limitRate(runtime.rateLimit, found ? enrollmentCaller(found) : addressCaller(incoming));
    if (!token) {
      throw new ApiError(
        401,
        'unauthorized',
        'No access token: send it as the username of HTTP Basic authentication with an empty password.',
        undefined,
        { 'WWW-Authenticate': 'Basic realm="api", charset="UTF-8"' },
      );
    }
    if (isLiveToken(token)) {
      if (options.sandboxOnly) {
        throw forbidden('The sandbox control API only accepts sandbox access tokens (test_token_...); this is a live token.', 'sandbox.live_token');
      }
      if (!hasClientCertificate(c)) {
        throw badRequest('Live access tokens need the TLS client certificate issued to the application.');
      }
    }
    const enrollment = usableEnrollment(found);
    if ((enrollment.mode === 'live') !== isLiveToken(token)) throw forbidden('The access token is not valid.');
    const application = reads!.application;
    c.set('application', application);
    useApplicationVersion(c, versionOf(application, runtime.defaultVersion));
    c.set('enrollment', enrollment);
    await next();
  };
}
