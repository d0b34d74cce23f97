// Rows to the current version's resource shapes (the version changes rewrite them for older
// versions on the way out). Links are absolute, under `base`.
import type { Account, AccountBalances, AccountDetails, Payee, Payment, Transaction } from '../contract/resources.ts';
import type { sandboxComponents } from '../contract/types.ts';
import { applicationName, rollbackUntil, versionOf } from '../domain/applications.ts';
import { isoTime } from '../domain/clock.ts';
import type { SessionState } from '../domain/connect-sessions.ts';
import type { FoundConnectToken } from '../domain/connect-tokens.ts';
import { SIGNATURE_ALGORITHM } from '../domain/enrollment-signatures.ts';
import type { PlannedEnrollment } from '../domain/enrollments.ts';
import type { EventType } from '../domain/events.ts';
import { institution } from '../domain/institutions.ts';
import { formatCents } from '../domain/money.ts';
import type { WebhookSettings } from '../domain/webhooks.ts';
import type { AccountRow, ApplicationRow, DeliveryRow, EnrollmentRow, PayeeRow, PaymentRow, SigningKeyRow, TransactionRow } from '../storage/store.ts';

const accountUrl = (base: string, id: string) => `${base}/accounts/${id}`;

export function presentAccount(base: string, row: AccountRow, institutionId: string): Account {
  const self = accountUrl(base, row.id);
  const bank = institution(institutionId);
  return {
    id: row.id,
    enrollment_id: row.enrollment_id,
    currency: row.currency,
    institution: { id: bank.id, name: bank.name },
    last_four: row.last_four,
    name: row.name,
    type: row.type,
    subtype: row.subtype as Account['subtype'],
    status: row.status,
    // A closed account keeps only its self link: none of its capabilities can be used. Cards have no details.
    links:
      row.status === 'closed'
        ? { self }
        : {
            self,
            ...(row.type === 'credit' ? {} : { details: `${self}/details` }),
            balances: `${self}/balances`,
            transactions: `${self}/transactions`,
            ...(row.payments_supported ? { payments: `${self}/payments` } : {}),
          },
  };
}

export function presentDetails(base: string, row: AccountRow): AccountDetails {
  const account = accountUrl(base, row.id);
  return {
    account_id: row.id,
    account_number: row.account_number,
    routing_numbers: { ach: row.routing_ach, wire: row.routing_wire },
    links: { self: `${account}/details`, account },
  };
}

export function presentBalances(base: string, row: AccountRow): AccountBalances {
  const account = accountUrl(base, row.id);
  return {
    account_id: row.id,
    ledger: formatCents(row.ledger_cents),
    available: formatCents(row.available_cents),
    links: { self: `${account}/balances`, account },
  };
}

export function presentTransaction(base: string, row: TransactionRow): Transaction {
  const account = accountUrl(base, row.account_id);
  const complete = row.processing_status === 'complete';
  return {
    id: row.id,
    account_id: row.account_id,
    amount: formatCents(row.amount_cents),
    date: row.date,
    description: row.description,
    status: row.status,
    type: row.type,
    running_balance: row.status === 'posted' && row.running_balance_cents !== null ? formatCents(row.running_balance_cents) : null,
    details: {
      processing_status: row.processing_status,
      // Enrichment results show once enrichment has completed.
      category: complete ? (row.category as Transaction['details']['category']) : null,
      counterparty: {
        name: complete ? row.counterparty_name : null,
        type: complete ? row.counterparty_type : null,
      },
    },
    links: { self: `${account}/transactions/${row.id}`, account },
  };
}

export function presentPayee(base: string, row: PayeeRow): Payee {
  return {
    scheme: row.scheme as Payee['scheme'],
    address: row.address,
    name: row.name,
    type: row.type,
    account_id: row.account_id,
    links: { account: accountUrl(base, row.account_id) },
  };
}

export function presentPayment(base: string, row: PaymentRow): Payment {
  const account = accountUrl(base, row.account_id);
  return {
    id: row.id,
    amount: row.amount,
    memo: row.memo,
    reference: row.reference,
    date: row.date,
    payee: {
      scheme: row.payee_scheme as Payment['payee']['scheme'],
      type: row.payee_type,
      name: row.payee_name,
      address: row.payee_address,
    },
    links: { self: `${account}/payments/${row.id}`, account },
  };
}

// The sandbox control API's shapes.

type SandboxSchemas = sandboxComponents['schemas'];
export type ApplicationView = SandboxSchemas['SandboxApplication'];
type ApiVersion = ApplicationView['default_version'];

export function applicationView(application: ApplicationRow, key: SigningKeyRow, serverDefault: string, now: number): ApplicationView {
  const until = rollbackUntil(application);
  const open = until !== null && now < until;
  return {
    id: application.id,
    name: applicationName(application),
    signing_key: { id: key.key_id, algorithm: SIGNATURE_ALGORITHM, public_key: key.public_key },
    // Stored versions are ones the server knows: they are checked when set.
    default_version: versionOf(application, serverDefault) as ApiVersion,
    previous_version: open ? (application.previous_version as ApiVersion) : null,
    rollback_until: open ? isoTime(until) : null,
  };
}

/** An enrollment's institution as the control API names it. */
export const institutionOf = (enrollment: Pick<EnrollmentRow, 'institution_id'>) => {
  const bank = institution(enrollment.institution_id);
  return { id: bank.id, name: bank.name };
};

/** The user an enrollment belongs to. */
export const userOf = (enrollment: EnrollmentRow): SandboxSchemas['SandboxUser'] => ({ id: enrollment.user_id });

/** An MFA challenge, with its status on its enrollment's clock. */
export function presentConnectToken(token: string, { row, status }: FoundConnectToken): SandboxSchemas['ConnectToken'] {
  return {
    connect_token: token,
    status,
    operation: row.operation,
    enrollment_id: row.enrollment_id,
    account_id: row.account_id,
    idempotency_key: row.idempotency_key,
    request: JSON.parse(row.request) as SandboxSchemas['ConnectToken']['request'],
    issued_at: isoTime(row.issued_at),
    expires_at: isoTime(row.expires_at),
    approved_at: row.approved_at === null ? null : isoTime(row.approved_at),
    completed_at: row.completed_at === null ? null : isoTime(row.completed_at),
  };
}

/** What the widget's `mfa` step asks (the sandbox's code is the same for every user that has one). */
const MFA_PROMPT = 'Enter the code we sent to your device (1234 in the sandbox).';

/** A widget session at its step; `base` is the base of the result's account links. */
export function presentConnectSession(base: string, { session, application, challenge, result }: SessionState): SandboxSchemas['ConnectSession'] {
  const pending = session.step === 'select_accounts' && session.pending ? (JSON.parse(session.pending) as PlannedEnrollment) : undefined;
  return {
    id: session.id,
    mode: session.mode,
    application: { id: application.id, name: applicationName(application) },
    step: session.step,
    products: JSON.parse(session.products) as SandboxSchemas['ConnectProduct'][],
    select_account: session.select_account,
    expires_at: isoTime(session.expires_at),
    institution: session.institution_id === null ? null : institutionOf({ institution_id: session.institution_id }),
    mfa: session.step === 'mfa' ? { prompt: MFA_PROMPT } : null,
    accounts: pending
      ? pending.accounts.map((account) => ({
          id: account.id,
          name: account.name,
          type: account.type,
          subtype: account.subtype,
          last_four: account.lastFour,
        }))
      : null,
    challenge: challenge && session.connect_token ? presentConnectToken(session.connect_token, challenge) : null,
    result: !result
      ? null
      : result.kind === 'approval'
        ? { connect_token: result.connectToken, status: 'approved' }
        : {
            access_token: result.accessToken,
            user: userOf(result.enrollment),
            enrollment: { id: result.enrollment.id, institution: institutionOf(result.enrollment) },
            accounts: result.accounts.map((row) => presentAccount(base, row, result.enrollment.institution_id)),
            signatures: result.signatures,
          },
  };
}

export const presentWebhookSettings = (settings: WebhookSettings) => ({
  url: settings.url,
  secrets: settings.secrets.map((row) => ({
    id: row.id,
    secret: row.secret,
    expires_at: row.expires_at === null ? null : isoTime(row.expires_at),
  })),
});

export const presentDelivery = (row: DeliveryRow) => ({
  id: row.id,
  event_id: row.event_id,
  event_type: row.event_type as EventType,
  status: row.status,
  attempts: row.attempts,
  last_status: row.last_status,
  last_error: row.last_error,
  next_attempt_at: row.next_attempt_at === null ? null : isoTime(row.next_attempt_at),
  delivered_at: row.delivered_at === null ? null : isoTime(row.delivered_at),
});
