// What a version change module looks like. The core speaks only the current version; each
// older version is one module that rewrites current shapes into its own on the way out (and
// its requests into current ones on the way in). Going back several versions applies the
// modules in turn, newest first.
import type { AccountDetails } from '../contract/resources.ts';

/** Resources whose shape a version may change, named by their current schema. */
export type Resource = 'Account' | 'AccountDetails' | 'AccountBalances' | 'Transaction' | 'Payee' | 'Payment' | 'PaymentSchemes';

export interface ChangeContext {
  /** Details of an account of the caller, or null while its numbers are not available. */
  details(accountId: string): Promise<AccountDetails | null>;
}

/** Takes the shape its resource or event has; the tables cannot name it, so callers hand the value over as it is. */
export type Rewrite = (value: never, context: ChangeContext) => unknown | Promise<unknown>;

export interface VersionChange {
  /** The version this module produces. */
  version: string;
  /** Short summary of how it differs from the version after it. */
  description: string;
  resources: Partial<Record<Resource, Rewrite>>;
  /** Webhook payloads by event type. */
  events: Partial<Record<string, Rewrite>>;
  /** Request bodies by operationId, rewritten into the newer version's shape. */
  requests: Partial<Record<string, (body: never) => unknown>>;
}
