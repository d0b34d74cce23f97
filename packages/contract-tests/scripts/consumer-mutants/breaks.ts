// The broken copies of the reference integration (reference/app.js and reference/receiver.js): each changes a few
// lines so that it breaks one promise a careful integration keeps, and names the testcase of junit.xml that is to
// catch it (matched against `<testsuite>: <testcase> [<failure type>]`) and the fault rounds it runs with.
import type { FaultRound } from '../../src/report/types.ts';

export type ConsumerMutant = {
  name: string;
  what: string;
  file: 'app.js' | 'receiver.js';
  /** Each `from` must be found in the file, exactly once. */
  replace: [from: string, to: string][];
  /** The fault rounds its consumer run gets (receivers are checked by `webhooks`). */
  faults: FaultRound[];
  caughtBy: RegExp;
};

const retryWithNewKey = "      if (idempotencyKey) headers['idempotency-key'] = randomUUID();\n";

export const consumerMutants: ConsumerMutant[] = [
  {
    name: 'amount-as-number',
    what: 'the payment amount is sent as a number',
    file: 'app.js',
    replace: [["amount: '12.50'", 'amount: 12.5']],
    faults: [],
    caughtBy: /^requests 2020-10-12: POST \/accounts\/\{account_id\}\/payments \[request body\]/,
  },
  {
    name: 'no-idempotency-key',
    what: 'payments are sent without an Idempotency-Key',
    file: 'app.js',
    replace: [["  if (idempotencyKey) headers['idempotency-key'] = idempotencyKey;\n", '']],
    faults: [],
    caughtBy: /^requests 2020-10-12: POST \/accounts\/\{account_id\}\/payments \[Idempotency-Key on every payment\]/,
  },
  {
    name: 'new-key-after-502',
    what: 'a payment is retried after a 5xx with a new Idempotency-Key',
    file: 'app.js',
    replace: [['      await sleep(Number.isFinite(retryAfter)', `${retryWithNewKey}      await sleep(Number.isFinite(retryAfter)`]],
    faults: ['server-error'],
    caughtBy: /^fault rounds: server-error \[payment retried with another Idempotency-Key\]/,
  },
  {
    name: 'early-retry-after-429',
    what: 'a 429 is retried after a short backoff instead of Retry-After',
    file: 'app.js',
    replace: [['retryAfter > 0 ? retryAfter * 1000 : backoff', 'retryAfter > 0 ? backoff : backoff']],
    faults: ['rate-limit'],
    caughtBy: /^fault rounds: rate-limit \[retried before Retry-After\]/,
  },
  {
    name: 'new-key-after-lost-answer',
    what: 'a payment whose answer was lost is sent again with a new Idempotency-Key (two payments)',
    file: 'app.js',
    replace: [
      [
        '      await sleep(backoff);\n      continue;\n    }\n    const status',
        `${retryWithNewKey}      await sleep(backoff);\n      continue;\n    }\n    const status`,
      ],
    ],
    faults: ['lost-answer'],
    caughtBy: /^fault rounds: lost-answer \[double payment\]/,
  },
  {
    name: 'calls-after-410',
    what: 'an account that answered 410 is still read',
    file: 'app.js',
    replace: [['  if (isClosed(fresh)) return { id: account.id, closed: true };\n', '']],
    faults: ['gone'],
    caughtBy: /^fault rounds: gone \[called a closed account\]/,
  },
  {
    name: 'undocumented-path',
    what: 'the sync reads a path the description does not have',
    file: 'app.js',
    // The copy's own template literal, written here as text.
    replace: [['  const balances = await request', "  await request('GET', path + '/statements');\n  const balances = await request"]],
    faults: [],
    caughtBy: /^requests 2020-10-12: GET \/accounts\/\{id\}\/statements \(not in the description\) \[documented operation\]/,
  },
  {
    name: 'unknown-service-version',
    what: 'requests ask for a Service-Version that does not exist',
    file: 'app.js',
    replace: [["const VERSION = '2020-10-12';", "const VERSION = '2021-01-01';"]],
    faults: [],
    caughtBy: /\[known Service-Version\]/,
  },
  {
    name: 'receiver-skips-signature',
    what: 'the receiver parses events without checking their signature',
    file: 'receiver.js',
    replace: [["event = await verifyWebhook(raw, req.headers['service-signature'], secrets);", "event = JSON.parse(raw.toString('utf8'));"]],
    faults: [],
    caughtBy: /^receiver .*: [a-z._]+ · (forged signature|unsigned|rotated-out secret) \[/,
  },
  {
    name: 'receiver-accepts-stale',
    what: 'the receiver accepts events signed a day ago',
    file: 'receiver.js',
    replace: [
      [
        "verifyWebhook(raw, req.headers['service-signature'], secrets)",
        "verifyWebhook(raw, req.headers['service-signature'], secrets, { toleranceSeconds: 86_400 })",
      ],
    ],
    faults: [],
    caughtBy: /^receiver .*: [a-z._]+ · stale timestamp \[/,
  },
];
