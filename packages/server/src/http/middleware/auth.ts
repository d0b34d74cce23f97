// Authentication: the access token (HTTP Basic username; in 2019-07-01 also the raw
// Authorization value) names the enrollment; live tokens also need the developer's TLS client
// certificate. The enrollment is brought up to date before the handler reads it.
import type { TLSSocket } from 'node:tls';
import type { MiddlewareHandler } from 'hono';
import { ApiError, badRequest, forbidden } from '../../domain/errors.ts';
import { enrollmentForToken } from '../../domain/enrollments.ts';
import { isLiveToken } from '../../domain/ids.ts';
import { syncEnrollment } from '../../domain/lifecycle.ts';
import type { AppContext, AppEnv, Runtime } from '../env.ts';

/** Versions that accept the raw token as the whole Authorization value. */
const RAW_TOKEN_VERSIONS = new Set(['2019-07-01']);

export function tokenOf(c: AppContext): string | undefined {
  const header = c.req.header('authorization')?.trim();
  if (!header) return undefined;
  const basic = /^basic\s+(\S+)$/i.exec(header);
  if (basic) {
    const decoded = Buffer.from(basic[1]!, 'base64').toString('utf8');
    const user = decoded.includes(':') ? decoded.slice(0, decoded.indexOf(':')) : decoded;
    return user || undefined;
  }
  if (RAW_TOKEN_VERSIONS.has(c.get('version')) && /^(test_)?token_[A-Za-z0-9]+$/.test(header)) return header;
  return undefined;
}

/** The TLS client certificate was presented and verified against the client CA. */
export function hasClientCertificate(c: AppContext): boolean {
  const socket = c.env?.incoming?.socket as TLSSocket | undefined;
  return socket?.encrypted === true && socket.authorized === true;
}

export interface AuthOptions {
  /** The sandbox control API: sandbox tokens only. */
  sandboxOnly?: boolean;
  /** The request needs the institution (details, balances, transactions). */
  bank?: boolean;
}

export function authenticate(runtime: Runtime, options: AuthOptions = {}): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const token = tokenOf(c);
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
        throw forbidden(
          'The sandbox control API only accepts sandbox access tokens (test_token_...); this is a live token.',
          'sandbox.live_token',
        );
      }
      if (!hasClientCertificate(c)) {
        throw badRequest('Live access tokens need the TLS client certificate issued to the application.');
      }
    }
    const enrollment = await enrollmentForToken(runtime.deps, token);
    if ((enrollment.mode === 'live') !== isLiveToken(token)) throw forbidden('The access token is not valid.');
    c.set('enrollment', await syncEnrollment(runtime.deps, enrollment, options.bank === true));
    await next();
  };
}
