// One place that maps a version date to its generated types, so every typed surface of the client
// (raw paths, named methods, webhook events) changes together when a caller picks another version.

import {
  type ComponentsByVersion,
  CURRENT_VERSION,
  type CurrentVersion,
  type OperationsByVersion,
  type PathsByVersion,
  VERSIONS,
  type Version,
} from '@aggregation/types/versions';

// Generated from the description: @aggregation/types carries the versions (and each one's types) in its own build,
// so the client, which depends on the types only, needs nothing more to know them.
export const versions = VERSIONS;
export const currentVersion = CURRENT_VERSION;
export type { ComponentsByVersion, CurrentVersion, OperationsByVersion, PathsByVersion, Version };

export type Paths<V extends Version> = PathsByVersion[V];
export type Schemas<V extends Version> = ComponentsByVersion[V]['schemas'];
export type Operations<V extends Version> = OperationsByVersion[V];

export type Account<V extends Version = CurrentVersion> = Schemas<V>['Account'];
export type AccountDetails<V extends Version = CurrentVersion> = Schemas<V>['AccountDetails'];
export type AccountBalances<V extends Version = CurrentVersion> = Schemas<V>['AccountBalances'];
export type Transaction<V extends Version = CurrentVersion> = Schemas<V>['Transaction'];
export type Payee<V extends Version = CurrentVersion> = Schemas<V>['Payee'];
export type Payment<V extends Version = CurrentVersion> = Schemas<V>['Payment'];
export type PaymentSchemes<V extends Version = CurrentVersion> = Schemas<V>['PaymentSchemes'];
export type Institution<V extends Version = CurrentVersion> = Schemas<V>['Institution'];
export type Entrypoint<V extends Version = CurrentVersion> = Schemas<V>['Entrypoint'];
export type MfaChallenge<V extends Version = CurrentVersion> = Schemas<V>['MfaChallenge'];
export type CreatePayeeRequest<V extends Version = CurrentVersion> = Schemas<V>['CreatePayeeRequest'];
export type CreatePaymentRequest<V extends Version = CurrentVersion> = Schemas<V>['CreatePaymentRequest'];
export type ErrorBody<V extends Version = CurrentVersion> = Schemas<V>['Error'];

/** Query of `GET /accounts/{account_id}/transactions` (`count`, `from_id`, `start_date`, `end_date`). */
export type TransactionQuery<V extends Version = CurrentVersion> = NonNullable<Operations<V>['listTransactions']['parameters']['query']>;

/** The four webhook events, discriminated by `type`. */
export type WebhookEvent<V extends Version = CurrentVersion> =
  | Schemas<V>['EnrollmentDisconnectedEvent']
  | Schemas<V>['TransactionsProcessedEvent']
  | Schemas<V>['AccountNumberVerificationProcessedEvent']
  | Schemas<V>['WebhookTestEvent'];
export type WebhookEventType = WebhookEvent['type'];
