// The broken servers of the mutation self-test: each breaks one promise of the description, and names the checks
// expected to catch it (a failed testcase of junit.xml whose name matches).
import type { SuiteId } from '../../src/report/types.ts';
import { type Break, editJson, type Sent } from './proxy.ts';

/** `suites`: the suites of the command's run (with --quick) whose checks are expected to catch it. */
export type Mutant = { name: string; what: string; caughtBy: RegExp; suites: SuiteId[]; break: Break };

const isPath = (sent: Sent, pattern: RegExp, method = 'GET') => sent.method === method && pattern.test(sent.url.pathname);
const transactionsPath = /^\/accounts\/[^/]+\/transactions$/;
type Json = Record<string, unknown>;

/** The last Authorization a client sent: what a server that ignores authentication would act as. */
let lastAuthorization: string | undefined;

export const mutants: Mutant[] = [
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
    caughtBy: /idempotency: /,
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
    caughtBy: /balances: /,
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

/** Checked by every suite of a --quick run: none may fail on it. */
export const unbroken: Mutant = {
  name: 'unbroken',
  what: 'the server as it is, through the same proxy',
  caughtBy: /$^/,
  suites: ['behaviour', 'proxy', 'schemathesis', 'arazzo'],
  break: {},
};
