// The handler of every operation of each document, keyed by operationId: the route registration
// (../routes.ts) takes method and path from the bundled description and the handler from here.
import { accountHandlers } from './accounts.ts';
import { entrypointHandlers } from './entrypoint.ts';
import { institutionHandlers } from './institutions.ts';
import { paymentHandlers } from './payments.ts';
import { transactionHandlers } from './transactions.ts';
import type { ApiHandlers } from './types.ts';

export { sandboxHandlers } from './sandbox.ts';

export const apiHandlers: ApiHandlers = {
  ...entrypointHandlers,
  ...institutionHandlers,
  ...accountHandlers,
  ...transactionHandlers,
  ...paymentHandlers,
};
