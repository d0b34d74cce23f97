// Payees and Zelle payments. A payment debits the payer account at once (ledger, available
// and a posted transaction) in the transaction that stores it and its idempotency key.
import { createHash } from 'node:crypto';
import type { AccountRow, EnrollmentRow, PayeeRow, PaymentCursor, PaymentRow, Repos, TransactionRow } from '../storage/store.ts';
import { UniqueViolation } from '../storage/store.ts';
import { availableOf } from './balances.ts';
import { dayOf, enrollmentNow } from './clock.ts';
import { type Deps, transactFor } from './context.ts';
import { ApiError, notFound, unprocessable } from './errors.ts';
import { newConnectToken, newId, newPaymentReference } from './ids.ts';
import { formatCents, parseAmount } from './money.ts';
import { keysetRows } from './paging.ts';

export const IDEMPOTENCY_RETENTION_MS = 72 * 60 * 60 * 1000;
/** Sandbox trigger: a payee name or payment memo of `mfa` answers with an MFA challenge. */
export const MFA_TRIGGER = 'mfa';

export const SCHEMES = ['zelle'] as const;

export interface PayeeInput {
  scheme: string;
  address: string;
  name: string;
  type: 'person' | 'business';
}

export interface PaymentInput {
  amount: string;
  memo: string;
  payee: { scheme: string; address: string; name?: string | undefined; type?: 'person' | 'business' | undefined };
}

export interface MfaChallenge {
  connect_token: string;
}

export function paymentsNotSupported(): ApiError {
  return new ApiError(
    422,
    'payments.not_supported',
    'This account cannot originate payments: its links have no `payments` (Zelle payments originate from checking accounts).',
  );
}

export function requirePayments(account: AccountRow): void {
  if (!account.payments_supported) throw paymentsNotSupported();
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const PHONE = /^\+?1?[-. (]*\d{3}[-. )]*\d{3}[-. ]*\d{4}$/;

/** Zelle addresses are an email address or a US mobile number. */
export function normalizeAddress(address: string): string | undefined {
  const trimmed = address.trim();
  if (EMAIL.test(trimmed)) return trimmed.toLowerCase();
  if (PHONE.test(trimmed)) return `+1${trimmed.replace(/\D/g, '').slice(-10)}`;
  return undefined;
}

const badAddress = (field: string) => unprocessable({ [field]: ['must be an email address or a US mobile phone number'] });

export async function createPayee(deps: Deps, enrollment: EnrollmentRow, account: AccountRow, input: PayeeInput): Promise<PayeeRow | MfaChallenge> {
  requirePayments(account);
  const address = normalizeAddress(input.address);
  if (!address) throw badAddress('address');
  if (input.name === MFA_TRIGGER) return { connect_token: newConnectToken() };
  return transactFor(deps, enrollment.id, async (tx) => {
    const row: PayeeRow = {
      account_id: account.id,
      scheme: input.scheme,
      address,
      name: input.name,
      type: input.type,
      created_at: enrollmentNow(deps.now, enrollment),
    };
    await tx.payees.upsert(row);
    return (await tx.payees.get(account.id, input.scheme, address))!;
  });
}

export interface PaymentOutcome<Body> {
  status: 202;
  /** The presented payment: what the Idempotency-Key keeps and answers again. */
  body: Body;
  /** The stored answer of an earlier request with the same Idempotency-Key: no payment was made now. */
  replayed: boolean;
}

/** Canonical JSON (sorted keys): the same body in JSON or form encoding hashes the same. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

const requestHash = (accountId: string, input: PaymentInput): string =>
  createHash('sha256')
    .update(`${accountId}\n${canonical(input)}`)
    .digest('hex');

/** Makes a payment; `present` gives the answer to keep under the Idempotency-Key with it. */
export async function createPayment<Body>(
  deps: Deps,
  enrollment: EnrollmentRow,
  account: AccountRow,
  input: PaymentInput,
  idempotencyKey: string | undefined,
  present: (payment: PaymentRow) => Body,
): Promise<PaymentOutcome<Body> | MfaChallenge> {
  requirePayments(account);
  const cents = parseAmount(input.amount);
  if (!(cents > 0)) throw unprocessable({ amount: ['must be greater than zero'] });
  const address = normalizeAddress(input.payee.address);
  if (!address) throw badAddress('payee.address');
  // MFA answers make no payment and are not stored under the key: the client repeats the request after MFA.
  if (input.memo === MFA_TRIGGER || input.payee.name === MFA_TRIGGER) return { connect_token: newConnectToken() };

  const hash = requestHash(account.id, input);
  const attempt = () =>
    transactFor(deps, enrollment.id, async (tx): Promise<PaymentOutcome<Body>> => {
      const now = enrollmentNow(deps.now, enrollment);
      // Asked for together: on a server database one round trip, the enrollment's lock taken first (its statements
      // run in order), the reads after it.
      const [, stored, reads] = await Promise.all([
        tx.enrollments.getForUpdate(enrollment.id),
        idempotencyKey === undefined ? undefined : tx.idempotency.get(enrollment.id, idempotencyKey),
        paymentReads(tx, account, input, address),
      ]);
      const expired = stored !== undefined && now - stored.created_at >= IDEMPOTENCY_RETENTION_MS;
      if (stored && !expired) {
        if (stored.request_hash !== hash) {
          throw new ApiError(
            422,
            'idempotency_key_reused',
            'This Idempotency-Key was already used with a different request; use a new key for a new payment.',
          );
        }
        return { status: 202 as const, body: JSON.parse(stored.response) as Body, replayed: true };
      }
      const { payment, writes } = makePayment(tx, account, input, cents, address, now, reads);
      const body = present(payment);
      await Promise.all([
        ...(expired ? [tx.idempotency.delete(enrollment.id, idempotencyKey!)] : []),
        ...writes,
        ...(idempotencyKey === undefined
          ? []
          : [
              tx.idempotency.insert({
                scope: enrollment.id,
                key: idempotencyKey,
                request_hash: hash,
                status: 202,
                response: JSON.stringify(body),
                created_at: now,
              }),
            ]),
      ]);
      return { status: 202 as const, body, replayed: false };
    });
  try {
    return await attempt();
  } catch (error) {
    // Another writer stored the same key first (a concurrent request): answer from its record.
    if (error instanceof UniqueViolation) return attempt();
    throw error;
  }
}

/** What a payment reads before it writes: independent of each other, so they are asked for together. */
interface PaymentReads {
  current: AccountRow | undefined;
  known: PayeeRow | undefined;
  maxSeq: number;
  pending: TransactionRow[];
}

async function paymentReads(tx: Repos, account: AccountRow, input: PaymentInput, address: string): Promise<PaymentReads> {
  const [current, known, maxSeq, pending] = await Promise.all([
    tx.accounts.get(account.enrollment_id, account.id),
    tx.payees.get(account.id, input.payee.scheme, address),
    tx.transactions.maxSeq(account.id),
    // The new transaction is posted: it is not among these.
    tx.transactions.listPending(account.id),
  ]);
  return { current, known, maxSeq, pending };
}

/** The payment and its writes, asked for together (in order: the transaction before the payment that names it). */
function makePayment(
  tx: Repos,
  account: AccountRow,
  input: PaymentInput,
  cents: number,
  address: string,
  now: number,
  { current, known, maxSeq, pending }: PaymentReads,
): { payment: PaymentRow; writes: Promise<void>[] } {
  const name = input.payee.name ?? known?.name;
  const type = input.payee.type ?? known?.type;
  if (!name || !type) {
    const params: Record<string, string[]> = {};
    if (!name) params['payee.name'] = ['is required for a new payee'];
    if (!type) params['payee.type'] = ['is required for a new payee'];
    throw unprocessable(params, 'The payee is not known yet: give its name and type.');
  }
  if (current!.available_cents < cents) {
    throw new ApiError(422, 'payments.insufficient_funds', 'The available balance does not cover the payment.');
  }
  const reference = newPaymentReference();
  const date = dayOf(now);
  const ledger = current!.ledger_cents - cents;
  const transactionId = newId('txn');
  const payment: PaymentRow = {
    id: newId('pay'),
    account_id: account.id,
    amount: formatCents(cents),
    amount_cents: cents,
    memo: input.memo,
    reference,
    date,
    payee_scheme: input.payee.scheme,
    payee_type: type,
    payee_name: name,
    payee_address: address,
    transaction_id: transactionId,
    created_at: now,
  };
  const writes = [
    tx.payees.upsert({ account_id: account.id, scheme: input.payee.scheme, address, name, type, created_at: now }),
    tx.transactions.insertMany([
      {
        id: transactionId,
        account_id: account.id,
        seq: maxSeq + 1,
        date,
        amount_cents: -cents,
        description: `Zelle payment to ${name} Conf# ${reference}`,
        status: 'posted',
        type: 'zelle',
        running_balance_cents: ledger,
        processing_status: 'complete',
        category: null,
        counterparty_name: name,
        counterparty_type: type === 'business' ? 'organization' : 'person',
        post_date: null,
        post_amount_cents: null,
        post_replaces: false,
        enrich_at: null,
      },
    ]),
    tx.accounts.update(account.id, { ledger_cents: ledger, available_cents: availableOf(current!, ledger, pending) }),
    tx.payments.insert(payment),
  ];
  return { payment, writes };
}

/** The account's payments, newest first, read a page at a time as they are consumed. */
export function listPayments(deps: Deps, account: AccountRow): AsyncIterable<PaymentRow> {
  requirePayments(account);
  return keysetRows<PaymentRow, PaymentCursor>(
    (before, limit) => deps.store.payments.page(account.id, { ...(before ? { before } : {}), limit }),
    (row) => ({ created_at: row.created_at, id: row.id }),
  );
}

export async function paymentOf(deps: Deps, account: AccountRow, id: string): Promise<PaymentRow> {
  const row = await deps.store.payments.get(account.id, id);
  if (!row) throw notFound(`No payment ${id} from account ${account.id}.`);
  return row;
}
