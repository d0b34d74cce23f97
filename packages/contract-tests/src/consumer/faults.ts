// The fault rounds: after the clean run the command runs again once per round, the proxy answering a documented
// failure in place of the API's answer (answers.ts), and what the command does next is judged from the wire alone:
// which requests came, when, with which key and body, and (for a lost answer) how many payments the API holds.
// The faults are chosen per request from the round and the seed, so that a run is the same each time.
import { createHash } from 'node:crypto';
import { isDeepStrictEqual } from 'node:util';
import type { DocumentName } from '@aggregation/openapi/contract';
import { documentOf, validatorOf } from '../coverage.ts';
import type { Exchange, Interception } from '../recorder.ts';
import type { Defect, FaultRound } from '../report/types.ts';
import { documentedAnswer, documents } from './answers.ts';
import { PAYMENT_OPERATION } from './requests.ts';

/** `Retry-After` of the rate-limit round, in seconds, as the issue of a 429 names it. */
export const RATE_LIMIT_RETRY_AFTER = 2;
/** `Retry-After` of an injected 503 or 504 (documented as required for them). */
export const SERVER_ERROR_RETRY_AFTER = 1;
/** Clock slack allowed to a command that waits as told (timers may fire a little early). */
export const WAIT_SLACK_MS = 100;
/** A retry within this time of the previous answer was sent without waiting. */
export const NO_WAIT_MS = 100;
/** Retries without waiting after a 5xx that are still tolerated. */
export const MAX_RETRIES_WITHOUT_WAITING = 5;
/** The reason the disconnected round gives the enrollment (the header then reads `disconnected.<reason>`). */
export const DISCONNECT_REASON = 'credentials_changed';

/** A payment the API holds, as the round counts them. */
export type HeldPayment = { id: string; accountId: string; amount: string; memo: string; payee: string };

/** What a round is given to judge with, besides the wire. */
export type RoundFacts = {
  /** The payments the API held before and after the command ran, when the API can be asked (not the mock). */
  paymentsBefore: HeldPayment[] | undefined;
  paymentsAfter: HeldPayment[] | undefined;
  exitCode: number | null;
};

export type RoundVerdict = { defects: Omit<Defect, 'round'>[]; notes: string[]; exchanges: Exchange[] };

export type FaultPlan = {
  round: FaultRound;
  /** What the round does to the enrollment before the command runs, in words (for the report). */
  setUp?: string;
  intercept(exchange: Exchange): Interception | undefined;
  judge(exchanges: Exchange[], facts: RoundFacts): RoundVerdict;
};

export type PlanContext = {
  /** The API document the command addresses. */
  version: DocumentName;
  seed: number;
  /** The round's enrollment was disconnected through the sandbox itself: its answers are real. */
  disconnectedForReal: boolean;
  /** The round's enrollment is a sandbox test user whose payees and payments ask for approval: its challenges are real. */
  mfaForReal: boolean;
};

type Addressed = { document: DocumentName; operationId: string; path: string; accountId: string | undefined };

/** The API operation a request addresses (sandbox control requests are never faulted). */
function addressed(exchange: Exchange): Addressed | undefined {
  const document = documentOf(exchange);
  if (document === 'sandbox') return undefined;
  const matched = validatorOf(document).match(exchange.method, exchange.path);
  const operationId = matched?.operation.operationId;
  if (!matched || typeof operationId !== 'string') return undefined;
  return { document, operationId, path: matched.path, accountId: matched.params.account_id };
}

const sameRequest = (a: Exchange, b: Exchange) => a.method === b.method && a.url === b.url;
const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
const describe = (e: Exchange) => `${e.method} ${new URL(e.url).pathname}${new URL(e.url).search}`;
const parsed = (body: string): unknown => {
  try {
    return JSON.parse(body);
  } catch {
    return body;
  }
};
const isPayment = (e: Exchange) => e.method === 'POST' && addressed(e)?.operationId === PAYMENT_OPERATION;

/** The same choice for the same seed, round and operation: a run is reproduced by its seed. */
export function seededIndex(seed: number, key: string, length: number): number {
  return createHash('sha256').update(`${seed}:${key}`).digest().readUInt32BE(0) % length;
}

function rateLimit(): FaultPlan {
  const faulted = new Set<string>();
  return {
    round: 'rate-limit',
    intercept(exchange) {
      const at = addressed(exchange);
      if (!at || faulted.has(at.operationId) || !documents(at.document, at.operationId, 429)) return undefined;
      faulted.add(at.operationId);
      return {
        by: 'rate-limit',
        answer: documentedAnswer(at.document, at.operationId, 429, {
          headers: { 'retry-after': String(RATE_LIMIT_RETRY_AFTER) },
          code: 'rate_limited',
          method: exchange.method,
          path: exchange.path,
        }),
      };
    },
    judge(exchanges) {
      const defects: RoundVerdict['defects'] = [];
      const injected = exchanges.filter((e) => e.injected === 'rate-limit');
      let waited = 0;
      let dropped = 0;
      for (const fault of injected) {
        const again = exchanges.find((e) => e !== fault && e.receivedAt > (fault.answeredAt ?? fault.receivedAt) && sameRequest(e, fault));
        if (!again) {
          dropped++;
          continue;
        }
        const gap = again.receivedAt - (fault.answeredAt ?? fault.receivedAt);
        if (gap < RATE_LIMIT_RETRY_AFTER * 1000 - WAIT_SLACK_MS) {
          defects.push({
            kind: 'retried before Retry-After',
            severity: 'defect',
            message: `${describe(fault)} answered 429 with Retry-After: ${RATE_LIMIT_RETRY_AFTER}; the command sent it again after ${seconds(gap)}`,
          });
        } else waited++;
      }
      return {
        defects,
        exchanges: injected,
        notes: [
          `${injected.length} requests answered 429 (Retry-After: ${RATE_LIMIT_RETRY_AFTER}); ${waited} sent again after waiting, ${dropped} not sent again`,
        ],
      };
    },
  };
}

function serverError(context: PlanContext): FaultPlan {
  const faulted = new Set<string>();
  /** Per request (method and URL): the faults it got in a row, and when the last was answered. */
  const streaks = new Map<string, { count: number; last: Exchange }>();
  const statusFor = (at: Addressed) => {
    const documented = [502, 503, 504].filter((status) => documents(at.document, at.operationId, status));
    return documented.length ? documented[seededIndex(context.seed, `server-error:${at.operationId}`, documented.length)] : undefined;
  };
  const answerFor = (exchange: Exchange, at: Addressed, status: number): Interception => ({
    by: 'server-error',
    answer: documentedAnswer(at.document, at.operationId, status, {
      ...(status === 502 ? {} : { headers: { 'retry-after': String(SERVER_ERROR_RETRY_AFTER) } }),
      method: exchange.method,
      path: exchange.path,
    }),
  });
  return {
    round: 'server-error',
    intercept(exchange) {
      const at = addressed(exchange);
      if (!at) return undefined;
      const status = statusFor(at);
      if (status === undefined) return undefined;
      const key = `${exchange.method} ${exchange.url}`;
      const streak = streaks.get(key);
      // A retry sent without waiting gets the same failure again, so that a command that retries at once and
      // without end shows it (the cap lets it through at last).
      if (
        streak &&
        streak.count <= MAX_RETRIES_WITHOUT_WAITING &&
        exchange.receivedAt - (streak.last.answeredAt ?? streak.last.receivedAt) < NO_WAIT_MS
      ) {
        streak.count++;
        streak.last = exchange;
        return answerFor(exchange, at, status);
      }
      if (faulted.has(at.operationId)) return undefined;
      faulted.add(at.operationId);
      streaks.set(key, { count: 1, last: exchange });
      return answerFor(exchange, at, status);
    },
    judge(exchanges) {
      const defects: RoundVerdict['defects'] = [];
      const injected = exchanges.filter((e) => e.injected === 'server-error');
      for (const [key, streak] of streaks) {
        if (streak.count > MAX_RETRIES_WITHOUT_WAITING)
          defects.push({
            kind: 'retried without waiting',
            severity: 'defect',
            message: `${key.replace(/ https?:\/\/[^/]+/, ' ')} answered 5xx and was sent again ${streak.count - 1} times, each within ${NO_WAIT_MS} ms of the answer (more than ${MAX_RETRIES_WITHOUT_WAITING} without waiting)`,
          });
      }
      for (const fault of injected.filter(isPayment)) {
        const retry = exchanges.find(
          (e) => e.receivedAt > (fault.answeredAt ?? fault.receivedAt) && isPayment(e) && e.path === fault.path && e !== fault,
        );
        if (!retry) continue;
        const key = fault.requestHeaders['idempotency-key'];
        const retryKey = retry.requestHeaders['idempotency-key'];
        if (key !== retryKey)
          defects.push({
            kind: 'payment retried with another Idempotency-Key',
            severity: 'defect',
            message: `${describe(fault)} answered ${fault.status}; the command retried the payment with Idempotency-Key ${JSON.stringify(retryKey ?? null)} instead of ${JSON.stringify(key ?? null)}: had the first reached the bank, that pays twice`,
          });
        else if (!isDeepStrictEqual(parsed(fault.requestBody), parsed(retry.requestBody)))
          defects.push({
            kind: 'payment retried with another body',
            severity: 'defect',
            message: `${describe(fault)} answered ${fault.status}; the command retried the payment with the same Idempotency-Key and another body (${retry.requestBody.slice(0, 200)} instead of ${fault.requestBody.slice(0, 200)}), which the API refuses (422 idempotency_key_reused)`,
          });
      }
      const statuses = [...new Set(injected.map((e) => e.status))].sort().join(', ');
      return {
        defects,
        exchanges: injected,
        notes: [`${faulted.size} operations had their first attempt answered ${statuses || '5xx'}; ${injected.length} answers injected in all`],
      };
    },
  };
}

const heldBody = (exchange: Exchange) => {
  const body = parsed(exchange.requestBody) as { amount?: unknown; memo?: unknown; payee?: { address?: unknown } } | undefined;
  return { amount: String(body?.amount ?? ''), memo: String(body?.memo ?? ''), payee: String(body?.payee?.address ?? '') };
};

function lostAnswer(): FaultPlan {
  let lost = false;
  return {
    round: 'lost-answer',
    setUp: 'the first payment the API accepts is made, then the connection closes before its answer',
    intercept(exchange) {
      if (lost || !isPayment(exchange)) return undefined;
      return {
        by: 'lost-answer',
        loseAnswer: (status) => {
          // Only an answer that made a payment is lost: a refused payment made nothing to pay twice.
          if (lost || status !== 202) return false;
          lost = true;
          return true;
        },
      };
    },
    judge(exchanges, facts) {
      const fault = exchanges.find((e) => e.lost);
      if (!fault) return { defects: [], exchanges: [], notes: ['the command sent no payment the API accepted: no answer was lost'] };
      const intended = heldBody(fault);
      const accountId = addressed(fault)?.accountId;
      const payment = (parsed(fault.lostBody ?? '') as { id?: string } | undefined)?.id;
      const retries = exchanges.filter((e) => e.receivedAt > fault.receivedAt && isPayment(e) && e.path === fault.path);
      const key = fault.requestHeaders['idempotency-key'];
      const sameKey = retries.filter((e) => e.requestHeaders['idempotency-key'] === key).length;
      const notes = [
        `the answer of ${describe(fault)} (payment ${payment ?? 'made'}) was lost; the command sent the payment again ${retries.length} times, ${sameKey} with the same Idempotency-Key`,
      ];
      const defects: RoundVerdict['defects'] = [];
      if (facts.paymentsBefore && facts.paymentsAfter) {
        const before = new Set(facts.paymentsBefore.map((p) => p.id));
        const made = facts.paymentsAfter.filter(
          (p) =>
            !before.has(p.id) && p.accountId === accountId && p.amount === intended.amount && p.memo === intended.memo && p.payee === intended.payee,
        );
        notes.push(`the API holds ${made.length} payments of ${intended.amount} to ${intended.payee} made in this round`);
        if (made.length > 1)
          defects.push({
            kind: 'double payment',
            severity: 'double-payment',
            message: `${made.length} payments created for one intended payment (${made.map((p) => p.id).join(', ')}): the answer of the first was lost, and the command sent it again with another Idempotency-Key`,
          });
      } else {
        const another = retries.find((e) => e.requestHeaders['idempotency-key'] !== key);
        if (another)
          defects.push({
            kind: 'double payment',
            severity: 'double-payment',
            message: `the answer of a payment was lost and the command sent it again with Idempotency-Key ${JSON.stringify(another.requestHeaders['idempotency-key'] ?? null)} instead of ${JSON.stringify(key ?? null)}: against a real API that pays twice (judged from the wire: the mock keeps no payments)`,
          });
      }
      return { defects, exchanges: [fault], notes };
    },
  };
}

function gone(): FaultPlan {
  let account: string | undefined;
  return {
    round: 'gone',
    setUp: 'the first account the command reads answers 410 account.closed from then on',
    intercept(exchange) {
      const at = addressed(exchange);
      if (!at?.accountId || !documents(at.document, at.operationId, 410)) return undefined;
      account ??= at.accountId;
      if (at.accountId !== account) return undefined;
      return {
        by: 'gone',
        answer: documentedAnswer(at.document, at.operationId, 410, { code: 'account.closed', method: exchange.method, path: exchange.path }),
      };
    },
    judge(exchanges) {
      const injected = exchanges.filter((e) => e.injected === 'gone');
      const first = injected[0];
      if (!first) return { defects: [], exchanges: [], notes: ['the command read no single account: nothing answered 410'] };
      const since = first.answeredAt ?? first.receivedAt;
      const after = injected.filter((e) => e.receivedAt > since);
      const defects: RoundVerdict['defects'] = after.length
        ? [
            {
              kind: 'called a closed account',
              severity: 'defect',
              message: `${describe(first)} answered 410 account.closed; the command called that account ${after.length} more times (${[...new Set(after.map(describe))].slice(0, 3).join(', ')})`,
            },
          ]
        : [];
      return {
        defects,
        exchanges: [first, ...after.slice(0, 2)],
        notes: [`account ${account} answered 410; ${after.length} requests for it came afterwards`],
      };
    },
  };
}

/** Reads that need the bank: a disconnected enrollment answers them 404 `enrollment.disconnected.<reason>`. */
const bankReads = new Set(['getAccountDetails', 'getAccountBalances', 'listTransactions', 'getTransaction']);

const readsDisconnected = (e: Exchange) =>
  (e.responseHeaders['service-enrollment-status'] ?? '').split('.')[0] === 'disconnected' || /"enrollment\.disconnected/.test(e.answerBody ?? '');

function disconnected(context: PlanContext): FaultPlan {
  return {
    round: 'disconnected',
    setUp: context.disconnectedForReal
      ? `the round's enrollment is disconnected through the sandbox (POST /sandbox/enrollment/disconnect, reason ${DISCONNECT_REASON}) before the command runs`
      : 'reads that need the bank answer 404 enrollment.disconnected with Service-Enrollment-Status: disconnected',
    intercept(exchange) {
      if (context.disconnectedForReal) return undefined;
      const at = addressed(exchange);
      if (!at || !bankReads.has(at.operationId) || !documents(at.document, at.operationId, 404)) return undefined;
      return {
        by: 'disconnected',
        answer: documentedAnswer(at.document, at.operationId, 404, {
          headers: { 'service-enrollment-status': `disconnected.${DISCONNECT_REASON}` },
          code: 'enrollment.disconnected',
          method: exchange.method,
          path: exchange.path,
        }),
      };
    },
    judge(exchanges, facts) {
      const first = exchanges.find(readsDisconnected);
      if (!first) return { defects: [], exchanges: [], notes: ['no answer the command got said disconnected'] };
      const after = exchanges.filter((e) => e.receivedAt > (first.answeredAt ?? first.receivedAt));
      const refused = exchanges.filter((e) => e.status === 404 && readsDisconnected(e));
      const repeated = refused.filter((e, i) => refused.findIndex((o) => sameRequest(o, e)) !== i).length;
      const operations = [...new Set(after.map((e) => addressed(e)?.operationId ?? `${e.method} ${e.path}`))];
      return {
        defects: [],
        exchanges: [first],
        notes: [
          `first disconnected answer: ${describe(first)} (${first.status}); afterwards the command sent ${after.length} requests (${operations.join(', ') || 'none'}), ` +
            `repeated a refused read ${repeated} times, and exited ${facts.exitCode ?? 'by a signal'}`,
        ],
      };
    },
  };
}

/** The sandbox test user whose every payee and payment is answered with an MFA challenge. */
export const MFA_TEST_USER = 'mfa.payments';
const challengedOperations = new Set(['createPayee', PAYMENT_OPERATION]);
const approval = /^\/sandbox\/connect_tokens\/[^/]+\/approve$/;
/** A payee or payment answered with a challenge (a payee is created with 200 too: the body tells them apart). */
const isChallenge = (e: Exchange) =>
  e.injected === 'mfa' || (e.status === 200 && challengedOperations.has(addressed(e)?.operationId ?? '') && /"connect_token"/.test(e.answerBody ?? ''));
/** The payee or payment was made: a success that is no challenge. */
const made = (e: Exchange) => e.status >= 200 && e.status < 300 && !isChallenge(e);
const sameKeyAndBody = (a: Exchange, b: Exchange) =>
  sameRequest(a, b) && a.requestBody === b.requestBody && a.requestHeaders['idempotency-key'] === b.requestHeaders['idempotency-key'];

function mfa(context: PlanContext): FaultPlan {
  return {
    round: 'mfa',
    setUp: context.mfaForReal
      ? `the round's enrollment is the sandbox test user ${MFA_TEST_USER}: every payee and payment answers 200 with a real MFA challenge (connect_token), approved in the enrollment widget or with POST /sandbox/connect_tokens/{connect_token}/approve`
      : 'payees and payments answer 200 with an MFA challenge (connect_token)',
    intercept(exchange) {
      if (context.mfaForReal) return undefined;
      const at = addressed(exchange);
      if (!at || !challengedOperations.has(at.operationId) || !documents(at.document, at.operationId, 200)) return undefined;
      return { by: 'mfa', answer: documentedAnswer(at.document, at.operationId, 200, { method: exchange.method, path: exchange.path }) };
    },
    judge(exchanges, facts) {
      const challenges = exchanges.filter(isChallenge);
      const first = challenges[0];
      if (!first) return { defects: [], exchanges: [], notes: ['the command created no payee or payment: no challenge was answered'] };
      const again = challenges.filter((e, i) => challenges.findIndex((o) => sameKeyAndBody(o, e)) !== i);
      const keys = new Set(challenges.filter(isPayment).map((e) => e.requestHeaders['idempotency-key']));
      const approvals = exchanges.filter((e) => e.method === 'POST' && approval.test(e.path) && e.status < 300);
      // Completed: the challenged request sent again after it, same key and body, and this time it made something.
      const completed = challenges.filter((c) => exchanges.some((e) => e.receivedAt > c.receivedAt && sameKeyAndBody(e, c) && made(e)));
      return {
        defects: [],
        exchanges: [first],
        notes: [
          `${challenges.length} challenges answered (${[...new Set(challenges.map(describe))].join(', ')}); the command sent ${again.length} of them again unchanged, ` +
            `used ${keys.size} Idempotency-Key(s) for its payments, approved ${approvals.length} through the sandbox, completed ${new Set(completed.map((c) => `${c.url} ${c.requestHeaders['idempotency-key']}`)).size} ` +
            `(the same request, key and body, then made the payee or payment), and exited ${facts.exitCode ?? 'by a signal'}`,
        ],
      };
    },
  };
}

export function planOf(round: FaultRound, context: PlanContext): FaultPlan {
  switch (round) {
    case 'rate-limit':
      return rateLimit();
    case 'server-error':
      return serverError(context);
    case 'lost-answer':
      return lostAnswer();
    case 'gone':
      return gone();
    case 'disconnected':
      return disconnected(context);
    case 'mfa':
      return mfa(context);
  }
}
