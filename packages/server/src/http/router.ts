// Declares a route of the description: its operation, and the middleware it needs
// (rate limit, read capture, authentication, enrollment status header, request validation) in that order.
import type { Handler, Hono, MiddlewareHandler } from 'hono';
import type { AppContext, AppEnv, Runtime } from './env.ts';
import { authenticate } from './middleware/auth.ts';
import { enrollmentStatusHeader } from './middleware/enrollment-status.ts';
import { syncTokenEnrollment } from './middleware/enrollment-sync.ts';
import { rateLimitByAddress } from './middleware/rate-limit.ts';
import { type Validators, validateRequest } from './middleware/validate.ts';
import type { ReadCache } from './read-cache.ts';

export interface RouteOptions {
  operationId: string;
  document: 'api' | 'sandbox';
  /** Whether an access token is required (default true). */
  auth?: boolean;
  /** The request reaches the institution: triggers the sandbox's disconnect-on-use users. */
  reachesInstitution?: boolean;
  /** Adds Service-Enrollment-Status to the response. */
  enrollmentStatus?: boolean;
}

export type Method = 'get' | 'post' | 'put' | 'delete' | 'options';

export interface Router {
  route(method: Method, path: string, options: RouteOptions, handler: (c: AppContext) => Promise<Response> | Response): void;
}

export function router(app: Hono<AppEnv>, runtime: Runtime, validators: Validators, readCache?: ReadCache): Router {
  const capture = readCache?.capture();
  return {
    route(method, path, options, handler) {
      const chain: MiddlewareHandler<AppEnv>[] = [];
      // Authenticated routes count requests in `authenticate`, once the token's enrollment is known.
      if (options.auth === false && runtime.rateLimit) chain.push(rateLimitByAddress(runtime));
      // Before authentication: the store's change mark is read before anything else is.
      if (capture && method === 'get' && options.document === 'api') chain.push(capture);
      if (options.auth !== false) {
        const sandboxOnly = options.document === 'sandbox';
        chain.push(authenticate(runtime, { sandboxOnly }));
        chain.push(syncTokenEnrollment(runtime, { sandboxOnly, reachesInstitution: options.reachesInstitution === true }));
      }
      if (options.enrollmentStatus) chain.push(enrollmentStatusHeader);
      chain.push(validateRequest(validators, options.operationId, options.document));
      const on = app.on.bind(app) as (method: string, path: string, ...handlers: (Handler<AppEnv> | MiddlewareHandler<AppEnv>)[]) => unknown;
      on(method.toUpperCase(), path, ...chain, handler as Handler<AppEnv>);
    },
  };
}
