// Chooses the version of each request (Service-Version, else the default version of the token's
// application, else the server's) and says on every response which version served it.
import type { MiddlewareHandler } from 'hono';
import { ApiError } from '../../domain/errors.ts';
import { isVersion, VERSIONS } from '../../versions/index.ts';
import type { AppContext, AppEnv } from '../env.ts';

export const VERSION_HEADER = 'Service-Version';

export function versionMiddleware(defaultVersion: string, publicUrl: string | undefined): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    c.set('base', publicUrl ?? new URL(c.req.url).origin);
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
