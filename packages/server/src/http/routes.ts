// Registers every operation of the bundled descriptions (the current version's and, with the
// sandbox on, the control API's) with its handler from the map: method and path as the bundle
// says them (`{id}` as Hono's `:id`), authentication unless the operation's `security` allows
// none, and the middleware each needs in this order: rate limit, read capture, authentication,
// bringing the enrollment up to date, the enrollment status header, request validation.
import { type JsonObject, loadBundle, type OpenApiDocument, operationsOf } from '@aggregation/openapi/contract';
import type { Handler, Hono, MiddlewareHandler } from 'hono';
import { CURRENT_VERSION } from '../versions/index.ts';
import type { AppEnv, Runtime } from './env.ts';
import { apiHandlers, sandboxHandlers } from './handlers/index.ts';
import type { RegisteredHandler } from './handlers/types.ts';
import { authenticate } from './middleware/auth.ts';
import { enrollmentStatusHeader } from './middleware/enrollment-status.ts';
import { syncTokenEnrollment } from './middleware/enrollment-sync.ts';
import { rateLimitByAddress } from './middleware/rate-limit.ts';
import { type Validators, validateRequest } from './middleware/validate.ts';
import type { ReadCache } from './read-cache.ts';

type Document = 'api' | 'sandbox';

/**
 * The reads that show no account's activity (balances, transactions, payees, payments): a payment leaves them valid
 * (ReadCache.capture). The other reads under `/accounts/{account_id}/` show that account's; the rest, any account's.
 */
const SHOWS_NO_ACTIVITY = new Set(['getEntrypoint', 'listInstitutions', 'listAccounts', 'getAccount', 'getAccountDetails']);
const ACCOUNT_PARAM = 'account_id';
const ACCOUNT_PATH = new RegExp(`^/accounts/\\{${ACCOUNT_PARAM}\\}/`);

/** `/accounts/{account_id}` as Hono writes it: `/accounts/:account_id`. */
export const honoPath = (path: string): string => path.replace(/\{([^}]+)\}/g, ':$1');

/** The operation may be called without credentials: its requirements (its own, or the document's) are none or an empty one. */
const allowsAnonymous = (security: JsonObject[]): boolean =>
  security.length === 0 || security.some((requirement) => Object.keys(requirement).length === 0);

interface Served {
  document: Document;
  bundle: OpenApiDocument;
  handlers: Record<string, RegisteredHandler>;
}

function documents(runtime: Runtime): Served[] {
  const api: Served = { document: 'api', bundle: loadBundle(CURRENT_VERSION), handlers: apiHandlers };
  return runtime.sandbox ? [api, { document: 'sandbox', bundle: loadBundle('sandbox'), handlers: sandboxHandlers }] : [api];
}

export function registerOperations(app: Hono<AppEnv>, runtime: Runtime, validators: Validators, readCache?: ReadCache): void {
  const captures = readCache && {
    any: readCache.capture(),
    none: readCache.capture('none'),
    account: readCache.capture({ accountParam: ACCOUNT_PARAM }),
  };
  const on = app.on.bind(app) as (method: string, path: string, ...handlers: (Handler<AppEnv> | MiddlewareHandler<AppEnv>)[]) => unknown;
  for (const { document, bundle, handlers } of documents(runtime)) {
    const operations = operationsOf(bundle);
    for (const { method, path, operationId, security } of operations) {
      const handler = handlers[operationId];
      if (!handler) throw new Error(`no handler for ${operationId} (${method.toUpperCase()} ${path} of the ${document} description)`);
      const auth = !allowsAnonymous(security);
      const chain: MiddlewareHandler<AppEnv>[] = [];
      // Authenticated routes count requests in `authenticate`, once the token's enrollment is known.
      if (!auth && runtime.rateLimit) chain.push(rateLimitByAddress(runtime));
      // Before authentication: the store's change mark is read before anything else is.
      if (captures && method === 'get' && document === 'api') {
        chain.push(SHOWS_NO_ACTIVITY.has(operationId) ? captures.none : ACCOUNT_PATH.test(path) ? captures.account : captures.any);
      }
      if (auth) {
        const sandboxOnly = document === 'sandbox';
        chain.push(authenticate(runtime, { sandboxOnly }));
        chain.push(syncTokenEnrollment(runtime, { sandboxOnly, reachesInstitution: handler.reachesInstitution === true }));
      }
      if (handler.enrollmentStatus) chain.push(enrollmentStatusHeader);
      chain.push(validateRequest(validators, operationId, document));
      on(method.toUpperCase(), honoPath(path), ...chain, (c) => handler.handle(c, runtime));
    }
    const described = new Set(operations.map((entry) => entry.operationId));
    const extra = Object.keys(handlers).filter((operationId) => !described.has(operationId));
    if (extra.length > 0) throw new Error(`handlers for operations the ${document} description does not have: ${extra.join(', ')}`);
    const unknown = document === 'api' ? [...SHOWS_NO_ACTIVITY].filter((operationId) => !described.has(operationId)) : [];
    if (unknown.length > 0) throw new Error(`reads said to show no account activity that the description does not have: ${unknown.join(', ')}`);
  }
}
