// Chooses the version of each request (Service-Version, else the default version of the token's
// application, else the server's) and says on every response which version served it.
import type { MiddlewareHandler } from 'hono';
import { ApiError } from '../../domain/errors.ts';
import { isVersion, VERSIONS } from '../../versions/index.ts';
import type { AppContext, AppEnv } from '../env.ts';

export const VERSION_HEADER = 'Service-Version';

/**
 * The origin of a request URL, parsed again only when the URL's text before its path differs from the last one's
 * (which holds the whole origin): requests come from few hosts, and a URL parse per request showed in profiles.
 */
export function originReader(): (url: string) => string {
  let lastPrefix = '';
  let lastOrigin = '';
  return (url) => {
    const pathAt = url.indexOf('/', url.indexOf('//') + 2);
    const prefixLength = pathAt === -1 ? url.length : pathAt;
    if (prefixLength !== lastPrefix.length || !url.startsWith(lastPrefix)) {
      lastOrigin = new URL(url).origin;
      lastPrefix = url.slice(0, prefixLength);
    }
    return lastOrigin;
  };
}

export function versionMiddleware(defaultVersion: string, publicUrl: string | undefined): MiddlewareHandler<AppEnv> {
  const originOf = originReader();
  return async (c, next) => {
    c.set('base', publicUrl ?? originOf(c.req.url));
    c.set('version', defaultVersion);
    c.header(VERSION_HEADER, defaultVersion);
    const requested = c.req.header(VERSION_HEADER);
    if (requested !== undefined) {
      if (!isVersion(requested.trim())) {
        throw new ApiError(400, 'bad_request', `Unknown ${VERSION_HEADER} "${requested}"; known versions: ${VERSIONS.join(', ')}.`);
      }
      c.set('version', requested.trim());
      c.header(VERSION_HEADER, requested.trim());
    }
    await next();
  };
}

/** Once the token names the application: its version serves a request that asked for none. */
export function useApplicationVersion(c: AppContext, version: string): void {
  if (c.req.header(VERSION_HEADER) !== undefined) return;
  c.set('version', version);
  c.header(VERSION_HEADER, version);
}
