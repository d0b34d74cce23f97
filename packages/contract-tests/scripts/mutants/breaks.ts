// The broken servers of the mutation self-test: each breaks one promise of the description, and names the checks
// expected to catch it (a failed testcase of junit.xml whose name matches).
import type { Mutant } from './mutant.ts';
import { promiseMutants } from './promises.ts';
import { editAnswers, editJson, type Sent } from './proxy.ts';

export type { Mutant } from './mutant.ts';

const isPath = (sent: Sent, pattern: RegExp, method = 'GET') => sent.method === method && pattern.test(sent.url.pathname);
const transactionsPath = /^\/accounts\/[^/]+\/transactions$/;
type Json = Record<string, unknown>;

/** The last Authorization a client sent: what a server that ignores authentication would act as. */
let lastAuthorization: string | undefined;
/** Each account's balances as first answered, by token, version and path. */
const firstBalances = new Map<string, string>();

const schemaAndRules: Mutant[] = [
  {
    name: 'drop-required-field',
    what: 'accounts lose their required `name`',
    caughtBy: /response_schema_conformance|versions: matches|prism validation|schema check/,
    suites: ['behaviour'],
    break: {
      response: (sent, answered) => {
        if (!isPath(sent, /^\/accounts(\/[^/]+)?$/)) return;
        editJson(answered, (body) => {
          for (const account of Array.isArray(body) ? body : [body]) delete (account as Json).name;
          return body;
        });
      },
    },
  },
  {
    name: 'money-as-number',
    what: 'balances are numbers where money is a string',
    caughtBy: /response_schema_conformance|versions: matches|prism validation|schema check/,
    suites: ['behaviour'],
    break: {
      response: (sent, answered) => {
        if (!isPath(sent, /\/balances$/)) return;
        editJson(answered, (body) => {
          for (const balance of Array.isArray(body) ? body : [body]) {
            const b = balance as Json;
            for (const key of ['ledger', 'available', 'amount']) if (typeof b[key] === 'string') b[key] = Number(b[key]);
          }
          return body;
        });
      },
    },
  },
  {
    name: 'wrong-status',
    what: 'a created payee answers 201 where the description says 200',
    caughtBy: /status_code_conformance|prism validation|status code check/,
    suites: ['arazzo'],
    break: {
      response: (sent, answered) => {
        if (isPath(sent, /\/payees$/, 'POST') && answered.status === 200) answered.status = 201;
      },
    },
  },
  {
    name: 'wrong-content-type',
    what: 'institutions are served as text/plain',
    caughtBy: /content_type_conformance|versions: matches|prism validation|content-type check/,
    suites: ['behaviour'],
    break: {
      response: (sent, answered) => {
        if (isPath(sent, /^\/institutions$/)) answered.headers['content-type'] = 'text/plain';
      },
    },
  },
  {
    name: 'ignore-from-id',
    what: '`from_id` is ignored',
    caughtBy: /paging: from_id continues strictly after that id/,
    suites: ['behaviour'],
    break: { request: (sent) => sent.url.searchParams.delete('from_id') },
  },
  {
    name: 'ignore-count',
    what: '`count` is ignored',
    caughtBy: /paging: count honoured/,
    suites: ['behaviour'],
    break: { request: (sent) => void (isPath(sent, transactionsPath) && sent.url.searchParams.delete('count')) },
  },
  {
    name: 'reverse-order',
    what: 'transactions come oldest first',
    caughtBy: /paging: newest first/,
    suites: ['behaviour'],
    break: {
      response: (sent, answered) =>
        void (isPath(sent, transactionsPath) && editJson(answered, (body) => (Array.isArray(body) ? body.reverse() : body))),
    },
  },
  {
    name: 'break-idempotency',
    what: 'the Idempotency-Key header is ignored',
    caughtBy: /idempotency: (same key and body give the same payment|another body with that key)/,
    suites: ['behaviour'],
    break: { request: (sent) => void delete sent.headers['idempotency-key'] },
  },
  {
    name: 'break-links',
    what: "every account's `links.self` names the first account",
    caughtBy: /links: self returns the resource that carried it/,
    suites: ['behaviour'],
    break: {
      response: (sent, answered) => {
        if (!isPath(sent, /^\/accounts$/)) return;
        editJson(answered, (body) => {
          if (!Array.isArray(body) || body.length < 2) return body;
          const first = (body as { links: Json }[])[0]!.links.self;
          for (const account of body as { links: Json }[]) account.links.self = first;
          return body;
        });
      },
    },
  },
  {
    name: 'accept-invalid-request',
    what: 'an invalid `count` is dropped instead of refused with 422',
    caughtBy: /negative_data_rejection/,
    suites: ['schemathesis'],
    break: {
      request: (sent) => {
        const count = sent.url.searchParams.get('count');
        if (count !== null && !(/^\d+$/.test(count) && Number(count) >= 1 && Number(count) <= 10_000)) sent.url.searchParams.delete('count');
      },
    },
  },
  {
    name: 'wrong-version-shape',
    what: '2019-07-01 requests get the 2020-10-12 shapes, named 2019-07-01',
    caughtBy: /versions: matches the version's schema|response_schema_conformance/,
    suites: ['behaviour'],
    break: {
      request: (sent) => {
        if (sent.headers['service-version'] !== '2019-07-01') return;
        sent.headers['service-version'] = '2020-10-12';
        sent.headers['x-mutant-version'] = '2019-07-01';
      },
      response: (sent, answered) => {
        if (sent.headers['x-mutant-version']) answered.headers['service-version'] = '2019-07-01';
      },
    },
  },
  {
    name: 'undeclared-error-code',
    what: '`not_found` is answered as `missing`',
    caughtBy: /errors: the code is one the description declares/,
    suites: ['behaviour', 'arazzo'],
    break: {
      response: (_sent, answered) =>
        void (
          answered.status === 404 &&
          editJson(answered, (body) => {
            const error = (body as { error?: Json }).error;
            if (error?.code === 'not_found') error.code = 'missing';
            return body;
          })
        ),
    },
  },
  {
    name: 'not-found-as-400',
    what: 'a 404 `not_found` is answered with status 400',
    caughtBy: /errors: the status is the code's declared status|status_code_conformance/,
    suites: ['behaviour', 'arazzo'],
    break: {
      response: (_sent, answered) => {
        if (answered.status === 404 && answered.body.includes('"not_found"')) answered.status = 400;
      },
    },
  },
  {
    name: 'balances-disagree',
    what: 'the ledger balance is a dollar more than the transactions say',
    caughtBy: /balances: the ledger is the newest posted transaction's running_balance/,
    suites: ['behaviour'],
    break: {
      response: (sent, answered) => {
        if (!isPath(sent, /\/balances$/)) return;
        editJson(answered, (body) => {
          const b = body as Json;
          if (typeof b.ledger === 'string') b.ledger = (Number(b.ledger) + 1).toFixed(2);
          return body;
        });
      },
    },
  },
  {
    name: 'running-balance-broken',
    what: "the second posted transaction's running_balance is a cent off",
    caughtBy: /balances: running_balance chains through the posted transactions/,
    suites: ['behaviour'],
    break: {
      response: editAnswers('GET', transactionsPath, (body) => {
        const posted = (Array.isArray(body) ? body : []).filter((t: Json) => t.status === 'posted' && typeof t.running_balance === 'string') as Json[];
        if (posted[1]) posted[1].running_balance = (Number(posted[1].running_balance) + 0.01).toFixed(2);
      }),
    },
  },
  {
    name: 'running-balance-on-pending',
    what: 'pending transactions carry a running_balance',
    caughtBy: /balances: running_balance is null for pending and card transactions/,
    suites: ['behaviour'],
    break: {
      response: editAnswers('GET', transactionsPath, (body) => {
        for (const t of (Array.isArray(body) ? body : []) as Json[]) if (t.status === 'pending') t.running_balance = '0.00';
      }),
    },
  },
  {
    name: 'available-above-ledger',
    what: 'the available balance is a hundred dollars above the ledger',
    caughtBy: /balances: available is at most the ledger minus the pending debits/,
    suites: ['behaviour'],
    break: {
      response: editAnswers('GET', /\/balances$/, (body) => {
        const b = body as Json;
        if (typeof b.ledger === 'string') b.available = (Number(b.ledger) + 100).toFixed(2);
      }),
    },
  },
  {
    name: 'payment-not-debited',
    what: "an account's balances read as they were first read",
    caughtBy: /balances: a payment debits the ledger and available balances at once/,
    suites: ['behaviour'],
    break: {
      response: (sent, answered) => {
        if (!isPath(sent, /\/balances$/) || answered.status !== 200) return;
        const key = `${sent.headers.authorization} ${sent.headers['service-version']} ${sent.url.pathname}`;
        const first = firstBalances.get(key);
        if (first) answered.body = Buffer.from(first);
        else firstBalances.set(key, answered.body.toString('utf8'));
      },
    },
  },
  {
    name: 'payment-transaction-missing',
    what: "a page of 20 transactions leaves out the payments' transactions",
    caughtBy: /balances: a payment appears as a posted transaction at once/,
    suites: ['behaviour'],
    break: {
      response: editAnswers('GET', transactionsPath, (body, sent) =>
        Array.isArray(body) && sent.url.searchParams.get('count') === '20' ? body.filter((t: Json) => t.type !== 'zelle') : body,
      ),
    },
  },
  {
    name: 'pages-with-a-gap',
    what: 'a page of 10 or more after `from_id` leaves out its last transaction',
    caughtBy: /paging: pages joined equal the unpaged list/,
    suites: ['behaviour'],
    break: {
      response: editAnswers('GET', transactionsPath, (body, sent) =>
        Array.isArray(body) && sent.url.searchParams.has('from_id') && Number(sent.url.searchParams.get('count')) >= 10 ? body.slice(0, -1) : body,
      ),
    },
  },
  {
    name: 'dead-link',
    what: "an account's `details` link answers 404",
    caughtBy: /links: every other link answers 200/,
    suites: ['behaviour'],
    break: {
      response: (sent, answered) => {
        if (!isPath(sent, /^\/accounts\/[^/]+\/details$/) || answered.status !== 200) return;
        answered.status = 404;
        answered.body = Buffer.from(JSON.stringify({ error: { code: 'not_found', message: 'No such account.' } }));
      },
    },
  },
  {
    name: 'version-unnamed',
    what: 'the institutions are answered without `Service-Version`',
    caughtBy: /versions: the answer names the version/,
    suites: ['behaviour'],
    break: { response: (sent, answered) => void (isPath(sent, /^\/institutions$/) && delete answered.headers['service-version']) },
  },
  {
    name: 'ignore-auth',
    what: 'a request without a token is served as the last token seen',
    caughtBy: /ignored_auth|prism validation|journey: /,
    suites: ['schemathesis'],
    break: {
      request: (sent) => {
        if (sent.url.pathname.startsWith('/sandbox')) return;
        if (sent.headers.authorization) lastAuthorization = sent.headers.authorization;
        else if (lastAuthorization && sent.url.pathname !== '/' && sent.url.pathname !== '/institutions')
          sent.headers.authorization = lastAuthorization;
      },
    },
  },
];

/** Every broken server: the schema's and the rules' first, then one per promise of the prose (promises.ts). */
export const mutants: Mutant[] = [...schemaAndRules, ...promiseMutants];

/** Checked by every suite of a --quick run: none may fail on it. */
export const unbroken: Mutant = {
  name: 'unbroken',
  what: 'the server as it is, through the same proxy',
  caughtBy: /$^/,
  suites: ['behaviour', 'proxy', 'schemathesis', 'arazzo'],
  break: {},
};
