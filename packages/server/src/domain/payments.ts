// Payees and Zelle payments. A payment debits the payer account at once (ledger, available
// and a posted transaction) in the transaction that stores it and its idempotency key; a payee
// is written in the transaction that stores its key. One that needs the user's approval answers an MFA challenge
// until it is approved (connect-tokens.ts).
import type { AccountRow, EnrollmentRow, PayeeRow, PaymentCursor, PaymentRow, Repos, TransactionRow } from '../storage/store.ts';
import { availableOf } from './balances.ts';
import { dayOf } from './clock.ts';
import type { Deps } from './context.ts';
import { ApiError, notFound, unprocessable } from './errors.ts';
import { type KeyedAnswer, onceUnderKey, requestHash } from './idempotency.ts';
import { newId, newPaymentReference } from './ids.ts';
import { formatCents, parseAmount } from './money.ts';
import { keysetRows } from './paging.ts';

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

/** Creates (or updates) a payee; `present` gives the answer to keep under the Idempotency-Key with it. */
export async function createPayee<Body>(
  deps: Deps,
  enrollment: EnrollmentRow,
  account: AccountRow,
  input: PayeeInput,
  idempotencyKey: string | undefined,
  present: (payee: PayeeRow) => Body,
): Promise<KeyedAnswer<Body>> {
  requirePayments(account);
  const address = normalizeAddress(input.address);
  if (!address) throw badAddress('address');
  const request = {
    enrollment,
    account: account.id,
    key: idempotencyKey,
    hash: requestHash(`${account.id}/payees`, input),
    status: 200,
    approval: needsApproval(enrollment, input.name) ? { operation: 'create_payee' as const, request: input } : undefined,
  };
  return onceUnderKey(deps, request, {
    read: async () => undefined,
    write: async (tx, now) => {
      await tx.payees.upsert({ account_id: account.id, scheme: input.scheme, address, name: input.name, type: input.type, created_at: now });
      return { body: present((await tx.payees.get(account.id, input.scheme, address))!), writes: [] };
    },
  });
}

/** Whether the request waits for the user's approval: the enrollment's user approves every one, or a name asks for it. */
const needsApproval = (enrollment: EnrollmentRow, ...names: (string | undefined)[]): boolean => enrollment.mfa_payments || names.includes(MFA_TRIGGER);

/** Makes a payment; `present` gives the answer to keep under the Idempotency-Key with it. */
export async function createPayment<Body>(
  deps: Deps,
  enrollment: EnrollmentRow,
  account: AccountRow,
  input: PaymentInput,
  idempotencyKey: string | undefined,
  present: (payment: PaymentRow) => Body,
): Promise<KeyedAnswer<Body>> {
  requirePayments(account);
  const cents = parseAmount(input.amount);
  if (!(cents > 0)) throw unprocessable({ amount: ['must be greater than zero'] });
  const address = normalizeAddress(input.payee.address);
  if (!address) throw badAddress('payee.address');
  const request = {
    enrollment,
    account: account.id,
    key: idempotencyKey,
    hash: requestHash(account.id, input),
    status: 202,
    // The client repeats the request, with its key, once the user approved it.
    approval: needsApproval(enrollment, input.memo, input.payee.name) ? { operation: 'create_payment' as const, request: input } : undefined,
  };
  return onceUnderKey(deps, request, {
    read: (tx) => paymentReads(tx, account, input, address),
    write: (tx, now, reads) => {
      const { payment, writes } = makePayment(tx, account, input, cents, address, now, reads);
      return { body: present(payment), writes };
    },
  });
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
