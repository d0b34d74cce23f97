// Payees and payments, with the description's own example requests: what a write answers is what was sent; the
// payment reads back as answered, alone and first in the list; a known payee is paid by scheme and address alone and
// the payment names the payee as it was created; a replay answers `Idempotent-Replayed: true` and the first answer
// does not; an MFA challenge is kept with its key until approved, then the same request pays once.
import { randomUUID } from 'node:crypto';
import { isDeepStrictEqual } from 'node:util';
import { escapePointer } from '@aggregation/openapi/contract';
import type { Version } from '@aggregation/openapi/versions';
import { errorCodes } from '@aggregation/types/error-codes';
import type { Collector } from '../report/collect.ts';
import { at } from './checks.ts';
import { exampleOf, type PayeeInput, type PaymentInput } from './examples.ts';
import type { Answer, Http } from './http.ts';
import type { Paid } from './idempotency.ts';
import { requestedCents } from './money.ts';
import { rule } from './rules.ts';

type Account = { id: string; links: Record<string, string | undefined> };
type Payee = PayeeInput & { account_id?: string; links?: { account?: string } };
type Payment = { id?: string; amount?: string; memo?: string; payee?: PayeeInput; links?: { self?: string; account?: string } };

const payeesOp = 'POST /accounts/{account_id}/payees';
const paymentsOp = 'POST /accounts/{account_id}/payments';
const described = (path: string, method: string) => `#/paths/${escapePointer(path)}/${method}/description`;
export const REPLAYED_HEADER = 'idempotent-replayed';

/** `field got (sent ...)` for each field sent that the answer does not carry as sent. */
function unlike(sent: Record<string, unknown>, got: Record<string, unknown> | undefined, fields: readonly string[], where = ''): string[] {
  return fields
    .filter((field) => sent[field] !== undefined && got?.[field] !== sent[field])
    .map((field) => `${where}${field} ${JSON.stringify(got?.[field])} (sent ${JSON.stringify(sent[field])})`);
}

/** What a payment answer does not carry of the request that made it (`amount` compared as a value: `25.5` is `25.50`). */
export function paymentUnlike(sent: PaymentInput, got: Payment | undefined, accountLink: string | undefined): string[] {
  return [
    ...(requestedCents(got?.amount) === requestedCents(sent.amount)
      ? []
      : [`amount ${JSON.stringify(got?.amount)} (sent ${JSON.stringify(sent.amount)})`]),
    ...unlike(sent, got, ['memo']),
    ...unlike(sent.payee, got?.payee, ['scheme', 'address', 'name', 'type'], 'payee.'),
    ...(got?.links?.account === accountLink ? [] : [`links.account ${JSON.stringify(got?.links?.account)} (the account is ${accountLink})`]),
  ];
}

const isChallenge = (answer: Answer) => answer.status === 200 && typeof (answer.json as { connect_token?: unknown })?.connect_token === 'string';

const connectTokenOf = (answer: Answer) => (isChallenge(answer) ? (answer.json as { connect_token: string }).connect_token : undefined);
const paymentIdOf = (answer: Answer | undefined) => (answer?.json as Payment | undefined)?.id;

/** The first step of an MFA challenge's life that broke the promise, with what it answered; undefined when none did. */
function mfaProblem(
  key: string,
  token: string,
  steps: { challengedAgain: Answer; otherBody: Answer; paidAfter?: Answer; paidAgain?: Answer },
): [Answer, string] | undefined {
  const { challengedAgain, otherBody, paidAfter, paidAgain } = steps;
  if (connectTokenOf(challengedAgain) !== token) {
    return [
      challengedAgain,
      `the same request with its Idempotency-Key ${key} answered ${challengedAgain.status} ${challengedAgain.text.slice(0, 200)}; expected the same challenge (${token})`,
    ];
  }
  const otherCode = (otherBody.json as { error?: { code?: string } } | undefined)?.error?.code;
  if (otherBody.status !== 422 || otherCode !== errorCodes.idempotencyKeyReused) {
    return [
      otherBody,
      `another body with the challenge's Idempotency-Key ${key} answered ${otherBody.status}; expected 422 ${errorCodes.idempotencyKeyReused}`,
    ];
  }
  if (paidAfter && paidAfter.status !== 202) {
    return [paidAfter, `after the challenge was approved, the same request answered ${paidAfter.status}; expected the payment (202)`];
  }
  if (paidAgain && (paidAgain.status !== 202 || paymentIdOf(paidAgain) !== paymentIdOf(paidAfter))) {
    return [
      paidAgain,
      `the approved payment asked again answered ${paidAgain.status} ${paymentIdOf(paidAgain) ?? ''}; expected the same payment ${paymentIdOf(paidAfter)}`,
    ];
  }
  return undefined;
}

export async function checkPayments(http: Http, collector: Collector, version: Version, account: Account, paid: Paid | undefined): Promise<void> {
  const base = `/accounts/${account.id}`;
  const paymentsPath = '/accounts/{account_id}/payments';
  const general = rule(version, '#/info/description', 'A write answers with what it made or changed, carrying the values the request sent');
  const replayedRule = rule(
    version,
    '#/components/headers/IdempotentReplayed/description',
    '`true` when this answer is the stored response of an earlier request with the same `Idempotency-Key` and body',
  );
  const send = (path: string, body: unknown, key: string) =>
    http.send('POST', `${base}${path}`, { version, body, headers: { 'idempotency-key': key } });
  /** One case of the replay header: `answer` is a replay or not. */
  const replayCase = (operation: string, answer: Answer, replay: boolean, what: string) => {
    const header = answer.headers.get(REPLAYED_HEADER);
    const right = replay ? header === 'true' : header === null;
    collector.record(
      at(version, operation, 'headers: Idempotent-Replayed: true on a replay and never otherwise'),
      right
        ? undefined
        : http.failure(
            answer,
            `${what} answered ${answer.status} with Idempotent-Replayed ${header ?? '(none)'}; expected ${replay ? 'true' : 'none'}`,
            replayedRule,
          ),
    );
  };

  if (paid) {
    const payment = paid.first.json as Payment;
    const wrong = paymentUnlike(paid.body, payment, account.links.self);
    collector.record(
      at(version, paymentsOp, 'writes: a payment answers what was sent'),
      wrong.length
        ? http.failure(
            paid.first,
            `the payment answered ${wrong.join(', ')}`,
            rule(version, described(paymentsPath, 'post'), 'The Payment carries what was sent: the `amount`'),
          )
        : undefined,
    );
    replayCase(paymentsOp, paid.first, false, 'the first payment with a new Idempotency-Key');
    replayCase(paymentsOp, paid.again, true, 'the same payment with the same Idempotency-Key');

    const alone = await http.get(`${base}/payments/${encodeURIComponent(String(payment.id))}`, version);
    const newest = Array.isArray(paid.listed.json) ? paid.listed.json[0] : undefined;
    const readRule = rule(
      version,
      described(paymentsPath, 'get'),
      'Lists every payment initiated through the service from this account, newest first.',
    );
    collector.record(
      at(version, 'GET /accounts/{account_id}/payments/{payment_id}', 'reads: a payment reads back as answered'),
      alone.status === 200 && isDeepStrictEqual(alone.json, payment)
        ? undefined
        : http.failure(
            alone,
            `payment ${payment.id} reads back as ${alone.status} ${alone.text.slice(0, 300)}; it was answered ${paid.first.text.slice(0, 300)}`,
            general,
          ),
    );
    collector.record(
      at(version, 'GET /accounts/{account_id}/payments', 'reads: a payment reads back as answered'),
      isDeepStrictEqual(newest, payment)
        ? undefined
        : http.failure(
            paid.listed,
            `the newest payment listed right after it was made is ${JSON.stringify(newest)?.slice(0, 300)}, not payment ${payment.id}`,
            readRule,
          ),
    );
  }

  // A payee, and the same request again with its key.
  const payeeBody = exampleOf<PayeeInput>(version, 'CreatePayeeRequest');
  const payeeKey = `contract-tests-${randomUUID()}`;
  const created = await send('/payees', payeeBody, payeeKey);
  const again = await send('/payees', payeeBody, payeeKey);
  const payee = created.json as Payee | undefined;
  const payeeWrong = [
    ...unlike(payeeBody, payee, ['scheme', 'address', 'name', 'type']),
    ...(payee?.account_id === account.id ? [] : [`account_id ${JSON.stringify(payee?.account_id)} (created for ${account.id})`]),
    ...(payee?.links?.account === account.links.self
      ? []
      : [`links.account ${JSON.stringify(payee?.links?.account)} (the account is ${account.links.self})`]),
  ];
  collector.record(
    at(version, payeesOp, 'writes: a payee answers what was sent'),
    created.status === 200 && payeeWrong.length === 0
      ? undefined
      : http.failure(
          created,
          created.status === 200 ? `the payee answered ${payeeWrong.join(', ')}` : `the description's example payee answered ${created.status}`,
          rule(
            version,
            described('/accounts/{account_id}/payees', 'post'),
            'The created Payee carries the `scheme`, `address`, `name` and `type` sent',
          ),
        ),
  );
  replayCase(payeesOp, created, false, 'the first payee with a new Idempotency-Key');
  replayCase(payeesOp, again, true, 'the same payee with the same Idempotency-Key');
  if (created.status === 200 && again.status === 200 && !isDeepStrictEqual(again.json, created.json)) {
    collector.record(
      at(version, payeesOp, 'headers: Idempotent-Replayed: true on a replay and never otherwise'),
      http.failure(again, `the replayed payee ${again.text.slice(0, 300)} is not the first answer ${created.text.slice(0, 300)}`, replayedRule),
    );
  }

  // A payment to that payee, by scheme and address alone.
  const known = exampleOf<PaymentInput>(version, 'CreatePaymentRequestExistingPayee');
  const knownRule = rule(version, described(paymentsPath, 'post'), "to an existing payee, with that payee's `name` and `type`");
  if (created.status !== 200 || known.payee.address !== payeeBody.address) {
    collector.skip(
      at(version, paymentsOp, 'reads: a known payee is paid by scheme and address alone'),
      created.status !== 200 ? `the example payee could not be created (${created.status})` : 'the examples pay another address than the payee example',
    );
  } else {
    // A dollar: the checks pay little, so that a token given with --token pays for many runs.
    const toKnown = await send('/payments', { ...known, amount: '1.00' }, `contract-tests-${randomUUID()}`);
    const named = (toKnown.json as Payment | undefined)?.payee;
    collector.record(
      at(version, paymentsOp, 'reads: a known payee is paid by scheme and address alone'),
      toKnown.status === 202 && named?.name === payee?.name && named?.type === payee?.type
        ? undefined
        : http.failure(
            toKnown,
            toKnown.status === 202
              ? `the payment names its payee ${JSON.stringify(named)}; the payee was created as ${JSON.stringify(payee)}`
              : `a payment to the payee just created, by scheme and address, answered ${toKnown.status}`,
            knownRule,
          ),
    );
  }

  // An MFA challenge is kept with its key: the same request answers the same challenge (a replay), another body is
  // refused; once approved (in a sandbox, through its control API) the same request pays, once.
  const mfa = exampleOf<PaymentInput>(version, 'CreatePaymentRequestMfa');
  const mfaKey = `contract-tests-${randomUUID()}`;
  const challenged = await send('/payments', mfa, mfaKey);
  const kept = at(version, paymentsOp, 'idempotency: an MFA challenge is kept with its key until approved, then pays once');
  if (!isChallenge(challenged)) {
    collector.skip(kept, `the description's MFA example answered ${challenged.status}, not a challenge (a sandbox answers it with one)`);
    return;
  }
  const keptRule = rule(version, described(paymentsPath, 'post'), 'An MFA challenge is kept under the key until its payment is made');
  const token = (challenged.json as { connect_token: string }).connect_token;
  const challengedAgain = await send('/payments', mfa, mfaKey);
  replayCase(paymentsOp, challenged, false, 'an MFA challenge');
  replayCase(paymentsOp, challengedAgain, true, 'an MFA challenge asked again with the same Idempotency-Key and body');
  const otherBody = await send('/payments', { ...mfa, amount: '1.00', memo: 'contract tests after MFA' }, mfaKey);
  const approval = await http.send('POST', `/sandbox/connect_tokens/${encodeURIComponent(token)}/approve`);
  const approved = approval.status === 200;
  const paidAfter = approved ? await send('/payments', mfa, mfaKey) : undefined;
  const paidAgain = approved ? await send('/payments', mfa, mfaKey) : undefined;
  const problem = mfaProblem(mfaKey, token, { challengedAgain, otherBody, paidAfter, paidAgain });
  collector.record(kept, problem ? http.failure(problem[0], problem[1], keptRule) : undefined);
  if (paidAfter && paidAgain) {
    replayCase(paymentsOp, paidAfter, false, 'the payment an approved challenge made');
    replayCase(paymentsOp, paidAgain, true, 'the approved payment asked again');
  }
}
