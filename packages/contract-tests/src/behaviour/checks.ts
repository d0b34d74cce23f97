// Every behaviour check by its name, the testcase name a report and the mutation self-test know it by. Each reads a
// promise of the description that PROMISES.md lists with its words (test/promises.test.ts keeps the two in step), and
// the checks record only these names (`Check` types them).
import type { DocumentName } from '@aggregation/openapi/contract';
import { errorCodes } from '@aggregation/types/error-codes';

export const behaviourChecks = [
  'paging: count honoured',
  'paging: from_id continues strictly after that id',
  'paging: newest first',
  'paging: pages joined equal the unpaged list',
  'links: self returns the resource that carried it',
  'links: every other link answers 200',
  'idempotency: same key and body give the same payment',
  `idempotency: another body with that key answers 422 ${errorCodes.idempotencyKeyReused}`,
  'idempotency: an MFA challenge is kept with its key until approved, then pays once',
  "versions: matches the version's schema",
  'versions: the answer names the version',
  'errors: the code is one the description declares',
  "errors: the status is the code's declared status",
  'balances: running_balance chains through the posted transactions',
  "balances: the ledger is the newest posted transaction's running_balance",
  'balances: available is at most the ledger minus the pending debits',
  'balances: running_balance is null for pending and card transactions',
  'balances: a payment debits the ledger and available balances at once',
  'balances: a payment appears as a posted transaction at once',

  'writes: a payee answers what was sent',
  'writes: a payment answers what was sent',
  'writes: the webhook settings answer the URL set and keep the secrets',
  'writes: a rotation expires the current secret when asked and adds a new current one',
  'writes: the clock answers the offset advanced by what was asked',
  'writes: a disconnect answers the status with the reason sent',
  'writes: a closed account answers closed with only its self link',
  'writes: the application answers the version asked for',
  'writes: an enrollment answers the institution and accounts asked for',
  'writes: a fired event answers the type and payload sent',

  'reads: a payment reads back as answered',
  'reads: a known payee is paid by scheme and address alone',
  'reads: the webhook settings read back as written',
  'reads: the clock reads back as advanced',
  'reads: advancing the clock posts pending transactions and completes enrichment',
  "reads: a refresh's new transactions are listed, pending",
  'reads: a disconnected enrollment answers from its last refresh and 404 for the bank',
  'reads: a closed account answers 410 account.closed',
  'reads: a removed account is gone for its token, the others stay',
  "reads: a removed enrollment's token is refused",
  "reads: requests without Service-Version use the application's version",

  'headers: Idempotent-Replayed: true on a replay and never otherwise',
  'headers: Retry-After on 429, 503 and 504 and only there',
  'headers: after Retry-After seconds the retry is served',
  "headers: Service-Enrollment-Status names the enrollment's status",
  "headers: Service-Enrollment-Status only on an account's own reads",
  'headers: Request-Id on every answer, unique, repeated in error bodies',
  "headers: Allow on 405 lists the path's methods",

  'consistency: an account reads the same in its enrollment, the list and alone',
  'consistency: every resource of an account names it',
  "consistency: the disconnect's status, the header and the event's reason agree",
  "consistency: a token sees only its own application's webhook settings",

  'webhooks: an event arrives as fired, signed with every live secret',
] as const;

export type Check = (typeof behaviourChecks)[number];

/** The testcase of a check: per document and operation (`GET /accounts/{account_id}`), or for the document alone. */
export const at = (document: DocumentName, operation: string | null, check: Check) => ({ document, operation, check });
