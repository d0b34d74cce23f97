// The broken servers of the promises the description makes in its prose (PROMISES.md): one per behaviour check that
// reads such a promise, each breaking it the way a server could, and caught by that check's name.
import { CURRENT_VERSION } from '@aggregation/openapi/versions';
import type { Check } from '../../src/behaviour/checks.ts';
import type { Mutant } from './mutant.ts';
import { type Answered, editAnswers, editJson, type Sent } from './proxy.ts';

type Json = Record<string, unknown>;

const is = (sent: Sent, method: string, pattern: RegExp) => sent.method === method && pattern.test(sent.url.pathname);
/** A failed testcase of the check: `<testsuite>: <operation> · <check>`, or `<testsuite>: <check>`. */
const caught = (check: Check) => new RegExp(`(: |· )${check.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`);
const requestJson = (sent: Sent): Json | undefined => {
  try {
    return JSON.parse(sent.body.toString('utf8')) as Json;
  } catch {
    return undefined;
  }
};
const editRequest = (sent: Sent, edit: (body: Json) => void) => {
  const body = requestJson(sent);
  if (!body) return;
  edit(body);
  sent.body = Buffer.from(JSON.stringify(body));
};
/** A request the server does not see: it is sent as a GET of the same path, and its answer replaced by `status`. */
const swallow = (sent: Sent) => {
  sent.headers['x-mutant-swallowed'] = sent.method;
  sent.method = 'GET';
  sent.body = Buffer.alloc(0);
};
const swallowed = (sent: Sent, answered: Answered, status: number) => {
  if (!sent.headers['x-mutant-swallowed']) return;
  answered.status = status;
  answered.body = Buffer.alloc(0);
  delete answered.headers['content-type'];
};
const copy = (answered: Answered): Answered => ({ status: answered.status, headers: { ...answered.headers }, body: Buffer.from(answered.body) });

const payees = /^\/accounts\/[^/]+\/payees$/;
const payments = /^\/accounts\/[^/]+\/payments$/;
const payment = /^\/accounts\/[^/]+\/payments\/[^/]+$/;
const transactions = /^\/accounts\/[^/]+\/transactions(\/[^/]+)?$/;
const account = /^\/accounts\/[^/]+$/;
const webhook = /^\/sandbox\/webhook$/;
const secrets = /^\/sandbox\/webhook\/secrets$/;
const secretsOf = (settings: unknown) => ((settings as Json).secrets ?? []) as Json[];

/** Idempotency keys (with their token) whose request was answered with an MFA challenge. */
const challengedKeys = new Set<string>();
/** Transactions as first seen: their status and enrichment state. */
const firstSeen = new Map<string, { status: unknown; processing: unknown }>();
/** The failure answered to a token's request of a path, answered again to the retry. */
const failedOnce = new Map<string, Answered>();
/** The URL the last `PUT /sandbox/webhook` set, whatever the token. */
let lastWebhookUrl: unknown;

export const promiseMutants: Mutant[] = [
  {
    name: 'mfa-challenge-forgotten',
    what: 'an MFA challenge is not kept with its Idempotency-Key: the same request answers a new connect_token each time',
    caughtBy: caught('idempotency: an MFA challenge is kept with its key until approved, then pays once'),
    suites: ['behaviour'],
    break: {
      response: (sent, answered) => {
        if (!is(sent, 'POST', payments) || !answered.body.includes('"connect_token"')) return;
        const key = `${sent.headers.authorization} ${sent.headers['idempotency-key']}`;
        if (challengedKeys.has(key)) {
          editJson(answered, (body) => {
            (body as Json).connect_token = `${String((body as Json).connect_token)}_new`;
          });
        }
        challengedKeys.add(key);
      },
    },
  },
  {
    name: 'payee-echo-wrong',
    what: 'a created payee answers its name in capitals',
    caughtBy: caught('writes: a payee answers what was sent'),
    suites: ['behaviour'],
    break: {
      response: editAnswers('POST', payees, (b) => {
        const payee = b as Json;
        if (typeof payee.name === 'string') payee.name = payee.name.toUpperCase();
      }),
    },
  },
  {
    name: 'payment-echo-wrong',
    what: 'a payment answers another memo than the one sent',
    caughtBy: caught('writes: a payment answers what was sent'),
    suites: ['behaviour'],
    break: {
      response: editAnswers('POST', payments, (b, _sent, answered) => {
        if (answered.status === 202) (b as Json).memo = 'edited';
      }),
    },
  },
  {
    name: 'payment-reads-stale',
    what: 'a payment read alone shows another memo than its answer',
    caughtBy: caught('reads: a payment reads back as answered'),
    suites: ['behaviour'],
    break: { response: editAnswers('GET', payment, (b) => ({ ...(b as Json), memo: 'edited' })) },
  },
  {
    name: 'known-payee-forgotten',
    what: "a payment to a known payee, by scheme and address, names someone else than the payee's name",
    caughtBy: caught('reads: a known payee is paid by scheme and address alone'),
    suites: ['behaviour'],
    break: {
      response: editAnswers('POST', payments, (b, sent, answered) => {
        const sentPayee = requestJson(sent)?.payee as Json | undefined;
        const payee = (b as { payee?: Json }).payee;
        if (answered.status === 202 && sentPayee && sentPayee.name === undefined && payee) payee.name = 'Someone Else';
      }),
    },
  },
  {
    name: 'replayed-header-dropped',
    what: 'a replayed payment or payee has no `Idempotent-Replayed: true`',
    caughtBy: caught('headers: Idempotent-Replayed: true on a replay and never otherwise'),
    suites: ['behaviour'],
    break: { response: (_sent, answered) => void delete answered.headers['idempotent-replayed'] },
  },
  {
    name: 'retry-after-everywhere',
    what: 'the account list carries `Retry-After` on a 200',
    caughtBy: caught('headers: Retry-After on 429, 503 and 504 and only there'),
    suites: ['behaviour'],
    break: {
      response: (sent, answered) => {
        if (is(sent, 'GET', /^\/accounts$/) && answered.status === 200) answered.headers['retry-after'] = '1';
      },
    },
  },
  {
    name: 'retry-never-served',
    what: 'a request that answered 429 or 504 answers the same again when retried after Retry-After',
    caughtBy: caught('headers: after Retry-After seconds the retry is served'),
    suites: ['behaviour'],
    break: {
      response: (sent, answered) => {
        const key = `${sent.headers.authorization} ${sent.method} ${sent.url.pathname}`;
        if (answered.status === 429 || answered.status === 504) failedOnce.set(key, copy(answered));
        else if (failedOnce.has(key)) Object.assign(answered, copy(failedOnce.get(key)!));
      },
    },
  },
  {
    name: 'enrollment-status-stale',
    what: '`Service-Enrollment-Status` always says `healthy`',
    caughtBy: caught("headers: Service-Enrollment-Status names the enrollment's status"),
    suites: ['behaviour'],
    break: {
      response: (_sent, answered) => {
        if (answered.headers['service-enrollment-status']) answered.headers['service-enrollment-status'] = 'healthy';
      },
    },
  },
  {
    name: 'enrollment-status-everywhere',
    what: 'the account list carries `Service-Enrollment-Status`',
    caughtBy: caught("headers: Service-Enrollment-Status only on an account's own reads"),
    suites: ['behaviour'],
    break: {
      response: (sent, answered) => {
        if (is(sent, 'GET', /^\/accounts$/)) answered.headers['service-enrollment-status'] = 'healthy';
      },
    },
  },
  {
    name: 'request-id-not-repeated',
    what: "an error body's `request_id` is not the answer's `Request-Id`",
    caughtBy: caught('headers: Request-Id on every answer, unique, repeated in error bodies'),
    suites: ['behaviour'],
    break: {
      response: (_sent, answered) => {
        if (answered.status < 400) return;
        editJson(answered, (b) => {
          const error = (b as { error?: Json }).error;
          if (error) error.request_id = 'req_contract_tests_other';
          return b;
        });
      },
    },
  },
  {
    name: 'allow-missing',
    what: 'a 405 has no `Allow` header',
    caughtBy: caught("headers: Allow on 405 lists the path's methods"),
    suites: ['behaviour'],
    break: { response: (_sent, answered) => void (answered.status === 405 && delete answered.headers.allow) },
  },
  {
    name: 'webhook-url-not-echoed',
    what: '`PUT /sandbox/webhook` answers the URL as none',
    caughtBy: caught('writes: the webhook settings answer the URL set and keep the secrets'),
    suites: ['behaviour'],
    break: { response: editAnswers('PUT', webhook, (b) => ({ ...(b as Json), url: null })) },
  },
  {
    name: 'webhook-reads-stale',
    what: '`GET /sandbox/webhook` reads the URL as none',
    caughtBy: caught('reads: the webhook settings read back as written'),
    suites: ['behaviour'],
    break: { response: editAnswers('GET', webhook, (b) => ({ ...(b as Json), url: null })) },
  },
  {
    name: 'webhook-settings-shared',
    what: "every token reads the URL the last `PUT /sandbox/webhook` set, whichever application's",
    caughtBy: caught("consistency: a token sees only its own application's webhook settings"),
    suites: ['behaviour'],
    break: {
      response: (sent, answered) => {
        if (is(sent, 'PUT', webhook) && answered.status === 200) lastWebhookUrl = requestJson(sent)?.url;
        else if (lastWebhookUrl !== undefined) editAnswers('GET', webhook, (b) => ({ ...(b as Json), url: lastWebhookUrl }))(sent, answered);
      },
    },
  },
  {
    name: 'rotation-expiry-wrong',
    what: 'a rotation answers the old secret expiring a day later than asked',
    caughtBy: caught('writes: a rotation expires the current secret when asked and adds a new current one'),
    suites: ['behaviour'],
    break: {
      response: editAnswers('POST', secrets, (b) => {
        for (const secret of secretsOf(b))
          if (typeof secret.expires_at === 'string') secret.expires_at = new Date(Date.parse(secret.expires_at) + 86_400_000).toISOString();
      }),
    },
  },
  {
    name: 'secrets-misreported',
    what: 'the webhook settings show secrets that do not sign the events (each written backwards)',
    caughtBy: caught('webhooks: an event arrives as fired, signed with every live secret'),
    suites: ['behaviour'],
    break: {
      response: (sent, answered) => {
        const backwards = (b: unknown) => {
          for (const secret of secretsOf(b)) secret.secret = [...String(secret.secret)].reverse().join('');
        };
        for (const [method, path] of [
          ['GET', webhook],
          ['PUT', webhook],
          ['POST', secrets],
        ] as const)
          editAnswers(method, path, backwards)(sent, answered);
      },
    },
  },
  {
    name: 'fired-payload-replaced',
    what: 'a fired event gets a payload the server builds instead of the one sent',
    caughtBy: caught('writes: a fired event answers the type and payload sent'),
    suites: ['behaviour'],
    break: { request: (sent) => void (is(sent, 'POST', /^\/sandbox\/events$/) && editRequest(sent, (b) => delete b.payload)) },
  },
  {
    name: 'event-reason-wrong',
    what: 'an `enrollment.disconnected` event the server builds says plain `disconnected`, whatever the reason',
    caughtBy: caught("consistency: the disconnect's status, the header and the event's reason agree"),
    suites: ['behaviour'],
    break: {
      response: editAnswers('POST', /^\/sandbox\/events$/, (b, sent) => {
        const payload = (b as { payload?: Json }).payload;
        if (requestJson(sent)?.payload === undefined && payload && typeof payload.reason === 'string') payload.reason = 'disconnected';
      }),
    },
  },
  {
    name: 'clock-advance-ignores-seconds',
    what: 'advancing the clock ignores `seconds`',
    caughtBy: caught('writes: the clock answers the offset advanced by what was asked'),
    suites: ['behaviour'],
    break: { request: (sent) => void (is(sent, 'POST', /^\/sandbox\/clock\/advance$/) && editRequest(sent, (b) => delete b.seconds)) },
  },
  {
    name: 'clock-reads-stale',
    what: '`GET /sandbox/clock` reads an offset of 0',
    caughtBy: caught('reads: the clock reads back as advanced'),
    suites: ['behaviour'],
    break: { response: editAnswers('GET', /^\/sandbox\/clock$/, (b) => ({ ...(b as Json), offset_seconds: 0 })) },
  },
  {
    name: 'advance-posts-nothing',
    what: 'transactions keep the status and enrichment state they were first seen with',
    caughtBy: caught('reads: advancing the clock posts pending transactions and completes enrichment'),
    suites: ['behaviour'],
    break: {
      response: editAnswers('GET', transactions, (b) => {
        for (const t of (Array.isArray(b) ? b : [b]) as { id?: string; status?: unknown; details?: Json }[]) {
          if (typeof t.id !== 'string') continue;
          const seen = firstSeen.get(t.id);
          if (!seen) firstSeen.set(t.id, { status: t.status, processing: t.details?.processing_status });
          else {
            t.status = seen.status;
            if (t.details) t.details.processing_status = seen.processing;
          }
        }
      }),
    },
  },
  {
    name: 'refresh-count-wrong',
    what: 'a refresh answers one new transaction more than it added',
    caughtBy: caught("reads: a refresh's new transactions are listed, pending"),
    suites: ['behaviour'],
    break: {
      response: editAnswers('POST', /^\/sandbox\/enrollment\/refresh$/, (b) => ({
        ...(b as Json),
        new_transactions: Number((b as Json).new_transactions) + 1,
      })),
    },
  },
  {
    name: 'disconnect-reason-dropped',
    what: 'a disconnect ignores the reason sent',
    caughtBy: caught('writes: a disconnect answers the status with the reason sent'),
    suites: ['behaviour'],
    break: { request: (sent) => void (is(sent, 'POST', /^\/sandbox\/enrollment\/disconnect$/) && editRequest(sent, (b) => delete b.reason)) },
  },
  {
    name: 'disconnected-account-404',
    what: "a disconnected enrollment's account answers 404 instead of its last refresh",
    caughtBy: caught('reads: a disconnected enrollment answers from its last refresh and 404 for the bank'),
    suites: ['behaviour'],
    break: {
      response: (sent, answered) => {
        const status = answered.headers['service-enrollment-status'];
        if (!is(sent, 'GET', account) || answered.status !== 200 || typeof status !== 'string' || !status.startsWith('disconnected')) return;
        answered.status = 404;
        answered.body = Buffer.from(JSON.stringify({ error: { code: `enrollment.${status}`, message: 'The enrollment is disconnected.' } }));
      },
    },
  },
  {
    name: 'closed-keeps-links',
    what: 'closing an account answers it with its balances link still there',
    caughtBy: caught('writes: a closed account answers closed with only its self link'),
    suites: ['behaviour'],
    break: {
      response: editAnswers('POST', /^\/sandbox\/accounts\/[^/]+\/close$/, (b) => {
        const links = (b as { links?: Json }).links;
        if (links && typeof links.self === 'string') links.balances = `${links.self}/balances`;
      }),
    },
  },
  {
    name: 'closed-answers-404',
    what: 'a closed account answers 404 not_found instead of 410 account.closed',
    caughtBy: caught('reads: a closed account answers 410 account.closed'),
    suites: ['behaviour'],
    break: {
      response: (_sent, answered) => {
        if (answered.status !== 410) return;
        answered.status = 404;
        editJson(answered, () => ({ error: { code: 'not_found', message: 'No such account.' } }));
      },
    },
  },
  {
    name: 'removed-account-stays',
    what: '`DELETE /accounts/{account_id}` answers 204 and removes nothing',
    caughtBy: caught('reads: a removed account is gone for its token, the others stay'),
    suites: ['behaviour'],
    break: {
      request: (sent) => void (is(sent, 'DELETE', account) && swallow(sent)),
      response: (sent, answered) => swallowed(sent, answered, 204),
    },
  },
  {
    name: 'revoke-ignored',
    what: '`DELETE /accounts` answers 204 and the token keeps working',
    caughtBy: caught("reads: a removed enrollment's token is refused"),
    suites: ['behaviour'],
    break: {
      request: (sent) => void (is(sent, 'DELETE', /^\/accounts$/) && swallow(sent)),
      response: (sent, answered) => swallowed(sent, answered, 204),
    },
  },
  {
    name: 'default-version-ignored',
    what: `a request without Service-Version is served in ${CURRENT_VERSION}, whatever the application's version`,
    caughtBy: caught("reads: requests without Service-Version use the application's version"),
    suites: ['behaviour'],
    break: {
      request: (sent) => {
        if (!sent.url.pathname.startsWith('/sandbox') && !sent.headers['service-version']) sent.headers['service-version'] = CURRENT_VERSION;
      },
    },
  },
  {
    name: 'application-version-ignored',
    what: 'a new application is on the default version, whatever it asked for',
    caughtBy: caught('writes: the application answers the version asked for'),
    suites: ['behaviour'],
    break: { request: (sent) => void (is(sent, 'POST', /^\/sandbox\/applications$/) && editRequest(sent, (b) => delete b.default_version)) },
  },
  {
    name: 'enrollment-institution-ignored',
    what: 'an enrollment is at the default institution, whatever it asked for',
    caughtBy: caught('writes: an enrollment answers the institution and accounts asked for'),
    suites: ['behaviour'],
    break: { request: (sent) => void (is(sent, 'POST', /^\/sandbox\/enrollments$/) && editRequest(sent, (b) => delete b.institution)) },
  },
  {
    name: 'enrollment-accounts-differ',
    what: "a new enrollment's answer names its accounts otherwise than the list does",
    caughtBy: caught('consistency: an account reads the same in its enrollment, the list and alone'),
    suites: ['behaviour'],
    break: {
      response: editAnswers('POST', /^\/sandbox\/enrollments$/, (b) => {
        for (const a of ((b as Json).accounts ?? []) as Json[]) a.name = `${String(a.name)} (new)`;
      }),
    },
  },
  {
    name: 'balances-name-another-account',
    what: 'balances name another account as theirs',
    caughtBy: caught('consistency: every resource of an account names it'),
    suites: ['behaviour'],
    break: {
      response: editAnswers('GET', /^\/accounts\/[^/]+\/balances$/, (b) => {
        if (!Array.isArray(b) && typeof (b as Json).account_id === 'string') (b as Json).account_id = 'acc_contract_tests_other';
      }),
    },
  },
];
