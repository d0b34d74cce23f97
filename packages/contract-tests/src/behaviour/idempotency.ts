// idempotency: the same Idempotency-Key and body give the same payment (and no second one); another body with that key
// answers 422 idempotency_key_reused. balances: that payment debits the ledger and available balances at once and
// a posted transaction of it appears. The request is the description's own example of a payment to a new payee.
import { randomUUID } from 'node:crypto';
import { escapePointer, loadBundle } from '@aggregation/openapi/contract';
import { declaredErrorCode, errorCodesOf } from '@aggregation/openapi/error-codes';
import type { Version } from '@aggregation/openapi/versions';
import { errorCodes } from '@aggregation/types/error-codes';
import type { Collector } from '../report/collect.ts';
import { at } from './checks.ts';
import { exampleOf, type PaymentInput } from './examples.ts';
import type { Answer, Http } from './http.ts';
import { cents, money, requestedCents } from './money.ts';
import { rule } from './rules.ts';

const operation = 'POST /accounts/{account_id}/payments';
const described = `#/paths/${escapePointer('/accounts/{account_id}/payments')}/post/description`;

type Balances = { ledger: string; available: string };
type Transaction = { id: string; amount: string; status: string; running_balance: string | null };

/** The payment the idempotency check made: what was sent, its answer, the replay's, and the list read just after. */
export type Paid = { body: PaymentInput; first: Answer; again: Answer; listed: Answer };

/** Pays the description's example of a payment to a new payee twice with one key; answers what it saw, once paid. */
export async function checkIdempotency(http: Http, collector: Collector, version: Version, accountId: string): Promise<Paid | undefined> {
  const body: PaymentInput = { ...exampleOf<PaymentInput>(version, 'CreatePaymentRequestNewPayee'), memo: 'contract tests' };
  const base = `/accounts/${accountId}`;
  const before = await http.get(`${base}/balances`, version);
  const paymentsBefore = await http.get(`${base}/payments`, version);
  const idempotencyKey = `contract-tests-${randomUUID()}`;
  const send = (payment: unknown) => http.send('POST', `${base}/payments`, { version, body: payment, headers: { 'idempotency-key': idempotencyKey } });

  const first = await send(body);
  const again = await send(body);
  const sameRule = rule(version, described, 'the stored response again (same payment id); no second payment');
  const firstId = (first.json as { id?: string } | undefined)?.id;
  const againId = (again.json as { id?: string } | undefined)?.id;
  if (first.status !== 202 || !firstId) {
    collector.record(
      at(version, operation, 'idempotency: same key and body give the same payment'),
      http.failure(first, `the description's example payment answered ${first.status}, expected 202 with a Payment`, sameRule),
    );
    return undefined;
  }
  const paymentsAfter = await http.get(`${base}/payments`, version);
  const countOf = (answer: typeof paymentsBefore) => (Array.isArray(answer.json) ? answer.json.length : Number.NaN);
  const made = countOf(paymentsAfter) - countOf(paymentsBefore);
  collector.record(
    at(version, operation, 'idempotency: same key and body give the same payment'),
    again.status === first.status && againId === firstId && made === 1
      ? undefined
      : http.failure(
          again,
          `the same body with Idempotency-Key ${idempotencyKey} answered ${again.status} with payment ${againId}, the first ${first.status} with ${firstId}; ${made} payments were made`,
          sameRule,
        ),
  );

  const other = { ...body, amount: money((requestedCents(body.amount) ?? 100) + 100) };
  const reused = await send(other);
  const code = (reused.json as { error?: { code?: string } } | undefined)?.error?.code;
  const declared = declaredErrorCode(errorCodesOf(loadBundle(version)), errorCodes.idempotencyKeyReused);
  collector.record(
    at(version, operation, `idempotency: another body with that key answers 422 ${errorCodes.idempotencyKeyReused}`),
    reused.status === declared?.status && code === errorCodes.idempotencyKeyReused
      ? undefined
      : http.failure(
          reused,
          `another body with Idempotency-Key ${idempotencyKey} answered ${reused.status} ${code ?? ''}`,
          rule(version, described, '`422 idempotency_key_reused`'),
        ),
  );

  // The payment's effect on the balances, as createPayment's description states it.
  const debited = rule(
    version,
    described,
    'Funds are debited at once from the payer account (ledger and available balances drop and a posted transaction appears)',
  );
  const after = await http.get(`${base}/balances`, version);
  const amount = requestedCents(body.amount)!;
  const [was, now] = [before.json as Balances, after.json as Balances];
  const dropped =
    cents(was?.ledger) !== undefined && cents(now?.ledger) === cents(was.ledger)! - amount && cents(now.available) === cents(was.available)! - amount;
  collector.record(
    at(version, 'GET /accounts/{account_id}/balances', 'balances: a payment debits the ledger and available balances at once'),
    dropped
      ? undefined
      : http.failure(after, `after paying ${body.amount}, the balances went from ${JSON.stringify(was)} to ${JSON.stringify(now)}`, debited),
  );
  const listed = await http.get(`${base}/transactions?count=20`, version);
  const posted = (Array.isArray(listed.json) ? (listed.json as Transaction[]) : []).find((t) => t.status === 'posted' && cents(t.amount) === -amount);
  collector.record(
    at(version, 'GET /accounts/{account_id}/transactions', 'balances: a payment appears as a posted transaction at once'),
    posted && posted.running_balance === now?.ledger
      ? undefined
      : http.failure(
          listed,
          posted
            ? `the payment's transaction ${posted.id} has running_balance ${posted.running_balance}, the ledger is ${now?.ledger}`
            : `no posted transaction of -${money(amount)} among the newest 20`,
          debited,
        ),
  );
  return { body, first, again, listed: paymentsAfter };
}
