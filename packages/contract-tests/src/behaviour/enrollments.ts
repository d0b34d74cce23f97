// Sandbox enrollments and what the control API does to them, each write judged by its answer and by the reads after
// it: an enrollment at the institution asked for, whose accounts read the same in the list and alone; the clock
// advanced (pending transactions post, enrichment completes) and a refresh (its new transactions listed, pending);
// an account closed (410 for it and its sub-resources); the enrollment disconnected (the list and the account from
// the last refresh, 404 for the bank's data, the header, the sandbox's status and the event's reason agreeing);
// accesses removed (404 for the account, 403 for the token); and the failures on purpose, each retried after
// `Retry-After` seconds and then served.
import { isDeepStrictEqual } from 'node:util';
import { escapePointer } from '@aggregation/openapi/contract';
import { CURRENT_VERSION } from '@aggregation/openapi/versions';
import type { Collector } from '../report/collect.ts';
import { at, type Check } from './checks.ts';
import { type Answer, errorCodeOf, type Http, shortly } from './http.ts';
import { rule } from './rules.ts';

const V = CURRENT_VERSION;
const describedAt = (path: string, method: string) => `#/paths/${escapePointer(path)}/${method}/description`;
const sandboxRule = (pointer: string, words: string) => rule('sandbox', pointer, words);
const STATUS_HEADER = 'service-enrollment-status';
/** The reason tokens the checks give to what they do, so that the codes and statuses name them. */
const REASON = 'contract_tests';

export type Account = { id: string; enrollment_id?: string; subtype?: string; status?: string; links: Record<string, string | undefined> } & Record<
  string,
  unknown
>;
type Transaction = { id: string; status?: string; details?: { processing_status?: string } };
type Institution = { id: string; name: string; products?: string[] };
export type SandboxEnrollment = { access_token: string; enrollment: { id: string; institution?: unknown }; accounts: Account[] };

const list = <T>(answer: Answer): T[] => (Array.isArray(answer.json) ? (answer.json as T[]) : []);
const pathOf = (http: Http, link: string | undefined) => (link ? new URL(http.url(link)).pathname : '/accounts/(no link)');

/** An enrollment in the application of `key`: `username` at an institution chosen from `GET /institutions`. */
export async function enrollAtInstitution(http: Http, collector: Collector, key: string): Promise<SandboxEnrollment | undefined> {
  const check = at('sandbox', 'POST /sandbox/enrollments', 'writes: an enrollment answers the institution and accounts asked for');
  const institutions = list<Institution>(await http.send('GET', '/institutions', { version: V, token: null }));
  const wanted = ['verify.instant', 'balance', 'transactions', 'payments'];
  // The last one that offers everything: not the default one, which an enrollment that names none would get too.
  const institution = institutions.filter((i) => wanted.every((p) => i.products?.includes(p))).at(-1);
  const body = { username: 'username', password: 'password', ...(institution ? { institution: institution.id } : {}) };
  const created = await http.send('POST', '/sandbox/enrollments', { body, token: key });
  const enrolled = created.json as SandboxEnrollment | undefined;
  const named = { id: institution?.id, name: institution?.name };
  const subtypes = (enrolled?.accounts ?? []).map((a) => a.subtype).sort();
  const problems = [
    ...(institution === undefined || isDeepStrictEqual(enrolled?.enrollment.institution, named)
      ? []
      : [`the enrollment is at ${JSON.stringify(enrolled?.enrollment.institution)}, ${JSON.stringify(named)} was asked for`]),
    ...(enrolled?.accounts ?? [])
      .filter((a) => institution !== undefined && !isDeepStrictEqual(a.institution, named))
      .map((a) => `account ${a.id} is at ${JSON.stringify(a.institution)}`),
    ...(isDeepStrictEqual(subtypes, ['checking', 'credit_card', 'savings']) && enrolled?.accounts.every((a) => a.status === 'open')
      ? []
      : [`the user username got the accounts ${JSON.stringify(enrolled?.accounts.map((a) => [a.subtype, a.status]))}`]),
  ];
  collector.record(
    check,
    created.status === 201 && problems.length === 0
      ? undefined
      : http.failure(
          created,
          created.status === 201 ? problems.join('; ') : `enrolling ${JSON.stringify(body)} answered ${shortly(created)}`,
          sandboxRule(
            '#/components/schemas/SandboxUsername/description',
            '`username` | Healthy: one checking, one savings and one credit card account.',
          ),
        ),
  );
  if (created.status !== 201 || !enrolled) return undefined;
  await checkEnrolledAccounts(http, collector, enrolled);
  return enrolled;
}

/** The accounts of a new enrollment are those its token lists, and each reads the same alone. */
async function checkEnrolledAccounts(http: Http, collector: Collector, enrolled: SandboxEnrollment): Promise<void> {
  const token = enrolled.access_token;
  const consistent = (operation: string) => at(V, operation, 'consistency: an account reads the same in its enrollment, the list and alone');
  const sameRule = rule(V, '#/info/description', 'every operation that shows an object shows it alike');
  const listed = await http.send('GET', '/accounts', { version: V, token });
  const byId = new Map(list<Account>(listed).map((a) => [a.id, a]));
  const unlike = enrolled.accounts.filter((a) => !isDeepStrictEqual(byId.get(a.id), a) || a.enrollment_id !== enrolled.enrollment.id);
  collector.record(
    consistent('GET /accounts'),
    listed.status === 200 && unlike.length === 0 && byId.size === enrolled.accounts.length
      ? undefined
      : http.failure(
          listed,
          `the enrollment ${enrolled.enrollment.id} answered the accounts ${JSON.stringify(enrolled.accounts).slice(0, 400)}; its token lists ${listed.text.slice(0, 400)}`,
          sandboxRule('#/components/schemas/SandboxEnrollmentSummary/properties/id/description', 'the `enrollment_id` of every account'),
        ),
  );
  for (const account of enrolled.accounts) {
    const alone = await http.send('GET', `/accounts/${account.id}`, { version: V, token });
    collector.record(
      consistent('GET /accounts/{account_id}'),
      alone.status === 200 && isDeepStrictEqual(alone.json, account)
        ? undefined
        : http.failure(
            alone,
            `account ${account.id} reads ${alone.text.slice(0, 300)} alone; its enrollment answered ${JSON.stringify(account).slice(0, 300)}`,
            sameRule,
          ),
    );
  }
}

/** The clock advanced by what was asked, read back the same; what fell due in the span applied; then a refresh. */
export async function checkClockAndRefresh(http: Http, collector: Collector, enrolled: SandboxEnrollment): Promise<void> {
  const token = enrolled.access_token;
  const withTransactions = enrolled.accounts.filter((a) => a.links.transactions && a.status === 'open');
  const checking = withTransactions.find((a) => a.subtype === 'checking') ?? withTransactions[0];
  if (!checking) return;
  const transactionsOf = (account: Account) => http.send('GET', pathOf(http, account.links.transactions), { version: V, token });
  const before = await transactionsOf(checking);
  const pending = list<Transaction>(before).filter((t) => t.status === 'pending');
  const enriching = list<Transaction>(before).filter((t) => t.details?.processing_status === 'pending');

  const clock = await http.send('GET', '/sandbox/clock', { token });
  const offset = (answer: Answer) => (answer.json as { offset_seconds?: number } | undefined)?.offset_seconds;
  const asked = { days: 3, seconds: 7 };
  const advanced = await http.send('POST', '/sandbox/clock/advance', { body: asked, token });
  const expected = (offset(clock) ?? Number.NaN) + asked.days * 86400 + asked.seconds;
  collector.record(
    at('sandbox', 'POST /sandbox/clock/advance', 'writes: the clock answers the offset advanced by what was asked'),
    advanced.status === 200 && offset(advanced) === expected
      ? undefined
      : http.failure(
          advanced,
          `the clock's offset was ${offset(clock)} seconds; advancing it by ${JSON.stringify(asked)} answered ${advanced.text.slice(0, 200)}, expected ${expected}`,
          sandboxRule(describedAt('/sandbox/clock/advance', 'post'), "Moves the token's enrollment clock forward by `days` × 86400 + `seconds`"),
        ),
  );
  const read = await http.send('GET', '/sandbox/clock', { token });
  const now = (answer: Answer) => Date.parse((answer.json as { now?: string } | undefined)?.now ?? '');
  collector.record(
    at('sandbox', 'GET /sandbox/clock', 'reads: the clock reads back as advanced'),
    read.status === 200 && offset(read) === offset(advanced) && now(read) >= now(advanced)
      ? undefined
      : http.failure(
          read,
          `the clock reads ${read.text.slice(0, 200)}; it was just answered as ${advanced.text.slice(0, 200)}`,
          sandboxRule(describedAt('/sandbox/clock', 'get'), "The token's enrollment clock: real time plus the offset that advancing has added."),
        ),
  );

  const after = await transactionsOf(checking);
  const byId = new Map(list<Transaction>(after).map((t) => [t.id, t]));
  const stillPending = pending.filter((t) => byId.get(t.id)?.status === 'pending');
  const notEnriched = enriching.filter((t) => byId.has(t.id) && byId.get(t.id)?.details?.processing_status !== 'complete');
  const applied = at(V, 'GET /accounts/{account_id}/transactions', 'reads: advancing the clock posts pending transactions and completes enrichment');
  if (pending.length + enriching.length === 0) collector.skip(applied, 'the account had no pending transaction or enrichment to see change');
  else
    collector.record(
      applied,
      after.status === 200 && stillPending.length === 0 && notEnriched.length === 0
        ? undefined
        : http.failure(
            after,
            `after advancing the clock 3 days, ${stillPending.length} of ${pending.length} pending transactions are still pending (${stillPending
              .slice(0, 3)
              .map((t) => t.id)
              .join(', ')}) and ${notEnriched.length} of ${enriching.length} enrichments not complete`,
            sandboxRule(
              describedAt('/sandbox/clock/advance', 'post'),
              'enrichment completes about 1 day after a transaction appears, pending transactions post after about 2 days',
            ),
          ),
    );

  // A refresh: its new transactions, over the enrollment's open accounts, are listed and pending.
  const listsBefore = await Promise.all(
    withTransactions.map(async (account) => new Set(list<Transaction>(await transactionsOf(account)).map((t) => t.id))),
  );
  const refreshed = await http.send('POST', '/sandbox/enrollment/refresh', { token });
  const added = (refreshed.json as { new_transactions?: number } | undefined)?.new_transactions;
  const listsAfter = await Promise.all(withTransactions.map(transactionsOf));
  const fresh = listsAfter.flatMap((answer, i) => list<Transaction>(answer).filter((t) => !listsBefore[i]!.has(t.id)));
  const notPending = fresh.filter((t) => t.status !== 'pending' || t.details?.processing_status !== 'pending');
  collector.record(
    at(V, 'GET /accounts/{account_id}/transactions', "reads: a refresh's new transactions are listed, pending"),
    refreshed.status === 200 && fresh.length === added && notPending.length === 0
      ? undefined
      : http.failure(
          listsAfter[0]!,
          `a refresh answered ${refreshed.text.slice(0, 200)}; the enrollment's lists gained ${fresh.length} transactions, ${notPending.length} of them not pending with enrichment pending (${JSON.stringify(notPending[0])?.slice(0, 200)})`,
          sandboxRule(describedAt('/sandbox/enrollment/refresh', 'post'), 'New transactions start `pending`, with enrichment `pending`'),
        ),
  );
}

/** An account closed: answered closed with only its `self` link, again the same; 410 for it and its sub-resources. */
export async function checkClose(http: Http, collector: Collector, enrolled: SandboxEnrollment): Promise<Account | undefined> {
  const token = enrolled.access_token;
  const account = enrolled.accounts.find((a) => a.subtype === 'savings') ?? enrolled.accounts.at(-1);
  if (!account) return undefined;
  const closeRule = sandboxRule(
    describedAt('/sandbox/accounts/{account_id}/close', 'post'),
    'The account keeps appearing in `GET /accounts` with status `closed` and only its `self` link',
  );
  const expected = { ...account, status: 'closed', links: { self: account.links.self } };
  const closed = await http.send('POST', `/sandbox/accounts/${account.id}/close`, { body: { reason: REASON }, token });
  const again = await http.send('POST', `/sandbox/accounts/${account.id}/close`, { body: {}, token });
  const written = at('sandbox', 'POST /sandbox/accounts/{account_id}/close', 'writes: a closed account answers closed with only its self link');
  collector.record(
    written,
    closed.status === 200 && isDeepStrictEqual(closed.json, expected)
      ? undefined
      : http.failure(closed, `closing ${JSON.stringify(account).slice(0, 300)} answered ${closed.text.slice(0, 300)}`, closeRule),
  );
  collector.record(
    written,
    again.status === 200 && isDeepStrictEqual(again.json, closed.json)
      ? undefined
      : http.failure(
          again,
          `closing the closed account again answered ${again.text.slice(0, 300)}; the first close ${closed.text.slice(0, 300)}`,
          sandboxRule(
            describedAt('/sandbox/accounts/{account_id}/close', 'post'),
            'Closing a closed account changes nothing and answers the account again.',
          ),
        ),
  );

  const gone = rule(V, '#/components/schemas/AccountStatus/description', 'Requests for a closed account or any of its sub-resources answer `410`');
  const check = (operation: string) => at(V, operation, 'reads: a closed account answers 410 account.closed');
  const reads: [string, string | undefined][] = [
    ['GET /accounts/{account_id}', account.links.self],
    ['GET /accounts/{account_id}/balances', account.links.balances],
    ['GET /accounts/{account_id}/transactions', account.links.transactions],
  ];
  for (const [operation, link] of reads) {
    if (!link) continue;
    const answer = await http.send('GET', pathOf(http, link), { version: V, token });
    collector.record(
      check(operation),
      answer.status === 410 && errorCodeOf(answer) === `account.closed.${REASON}`
        ? undefined
        : http.failure(answer, `the account closed with the reason ${REASON} answered ${shortly(answer)}; expected 410 account.closed.${REASON}`, gone),
    );
  }
  const listed = await http.send('GET', '/accounts', { version: V, token });
  const inList = list<Account>(listed).find((a) => a.id === account.id);
  collector.record(
    check('GET /accounts'),
    isDeepStrictEqual(inList, expected)
      ? undefined
      : http.failure(listed, `the closed account is listed as ${JSON.stringify(inList)?.slice(0, 300)}`, closeRule),
  );
  return account;
}

/** The enrollment disconnected with a reason: its answer, the reads after it, the header and the event agree. */
export async function checkDisconnect(http: Http, collector: Collector, enrolled: SandboxEnrollment, closed: Account | undefined): Promise<void> {
  const token = enrolled.access_token;
  const account = enrolled.accounts.find((a) => a.subtype === 'checking' && a.id !== closed?.id) ?? enrolled.accounts.find((a) => a.id !== closed?.id);
  if (!account) return;
  const status = `disconnected.${REASON}`;
  const headerRule = rule(
    V,
    '#/components/headers/ServiceEnrollmentStatus/description',
    "Health of the account's enrollment: `healthy` or `disconnected`",
  );
  const headerCase = (operation: string, answer: Answer, expected: string) =>
    collector.record(
      at(V, operation, "headers: Service-Enrollment-Status names the enrollment's status"),
      answer.headers.get(STATUS_HEADER) === expected
        ? undefined
        : http.failure(
            answer,
            `the enrollment is ${expected}; ${operation} answered ${answer.status} with Service-Enrollment-Status ${answer.headers.get(STATUS_HEADER)}`,
            headerRule,
          ),
    );
  const reads = [
    ['GET /accounts/{account_id}', account.links.self],
    ['GET /accounts/{account_id}/balances', account.links.balances],
    ['GET /accounts/{account_id}/transactions', account.links.transactions],
    ['GET /accounts/{account_id}/details', account.links.details],
  ].filter((read): read is [string, string] => read[1] !== undefined);
  // Healthy so far (an event fired about the enrollment changed nothing).
  for (const [operation, link] of reads) headerCase(operation, await http.send('GET', pathOf(http, link), { version: V, token }), 'healthy');
  const listedBefore = await http.send('GET', '/accounts', { version: V, token });

  const disconnected = await http.send('POST', '/sandbox/enrollment/disconnect', { body: { reason: REASON }, token });
  const state = disconnected.json as { id?: string; status?: string } | undefined;
  collector.record(
    at('sandbox', 'POST /sandbox/enrollment/disconnect', 'writes: a disconnect answers the status with the reason sent'),
    disconnected.status === 200 && state?.status === status && state.id === enrolled.enrollment.id
      ? undefined
      : http.failure(
          disconnected,
          `disconnecting enrollment ${enrolled.enrollment.id} with the reason ${REASON} answered ${disconnected.text.slice(0, 200)}`,
          sandboxRule(
            '#/components/schemas/DisconnectSandboxEnrollmentRequest/properties/reason/description',
            'the status becomes `disconnected.<reason>`',
          ),
        ),
  );

  const readsCheck = (operation: string) => at(V, operation, 'reads: a disconnected enrollment answers from its last refresh and 404 for the bank');
  const readsRule = sandboxRule(
    describedAt('/sandbox/enrollment/disconnect', 'post'),
    'the account list and single accounts still answer from the last refresh, and reads that need the bank (details, balances, transactions) answer `404 enrollment.disconnected[.<reason>]`',
  );
  const listed = await http.send('GET', '/accounts', { version: V, token });
  collector.record(
    readsCheck('GET /accounts'),
    listed.status === 200 && isDeepStrictEqual(listed.json, listedBefore.json)
      ? undefined
      : http.failure(listed, `after the disconnect the list answered ${shortly(listed)}; before it ${listedBefore.text.slice(0, 200)}`, readsRule),
  );
  let header: string | null = null;
  for (const [operation, link] of reads) {
    const answer = await http.send('GET', pathOf(http, link), { version: V, token });
    const fromRefresh = operation === 'GET /accounts/{account_id}';
    if (fromRefresh) header = answer.headers.get(STATUS_HEADER);
    const right = fromRefresh
      ? answer.status === 200 &&
        isDeepStrictEqual(
          answer.json,
          list<Account>(listedBefore).find((a) => a.id === account.id),
        )
      : answer.status === 404 && errorCodeOf(answer) === `enrollment.${status}`;
    collector.record(
      readsCheck(operation),
      right ? undefined : http.failure(answer, `after a disconnect with the reason ${REASON}, ${operation} answered ${shortly(answer)}`, readsRule),
    );
    headerCase(operation, answer, status);
  }

  // The event about it names the same status, as the sandbox's answer did.
  const fired = await http.send('POST', '/sandbox/events', { body: { type: 'enrollment.disconnected' }, token });
  const payload = (fired.json as { payload?: { enrollment_id?: string; reason?: string } } | undefined)?.payload;
  collector.record(
    at('sandbox', 'POST /sandbox/events', "consistency: the disconnect's status, the header and the event's reason agree"),
    fired.status === 202 && payload?.reason === header && header === state?.status && payload?.enrollment_id === account.enrollment_id
      ? undefined
      : http.failure(
          fired,
          `the disconnect answered the status ${state?.status}, the account's Service-Enrollment-Status is ${header}, the event built for it says ${JSON.stringify(payload)}`,
          rule(
            V,
            '#/components/schemas/EnrollmentDisconnectedPayload/properties/reason/description',
            'the same value as the `Service-Enrollment-Status` header',
          ),
        ),
  );
}

/** Access removed from one account (404 for it, the others stay), then from all (the token refused). */
export async function checkRemovals(http: Http, collector: Collector, enrolled: SandboxEnrollment): Promise<void> {
  const token = enrolled.access_token;
  const [kept, removed] = enrolled.accounts;
  if (!kept || !removed) return;
  const removedCheck = (operation: string) => at(V, operation, 'reads: a removed account is gone for its token, the others stay');
  const removedRule = rule(
    V,
    describedAt('/accounts/{account_id}', 'delete'),
    'Afterwards the account is gone for this access token: requests for it answer `404 not_found`.',
  );
  const deleted = await http.send('DELETE', `/accounts/${removed.id}`, { version: V, token });
  const gone = await http.send('GET', `/accounts/${removed.id}`, { version: V, token });
  const stays = await http.send('GET', `/accounts/${kept.id}`, { version: V, token });
  const listed = await http.send('GET', '/accounts', { version: V, token });
  const ids = list<Account>(listed)
    .map((a) => a.id)
    .sort();
  const others = enrolled.accounts
    .filter((a) => a !== removed)
    .map((a) => a.id)
    .sort();
  collector.record(
    removedCheck('GET /accounts/{account_id}'),
    deleted.status === 204 && gone.status === 404 && errorCodeOf(gone) === 'not_found' && stays.status === 200
      ? undefined
      : http.failure(
          gone,
          `after DELETE /accounts/${removed.id} answered ${deleted.status}, the account answers ${shortly(gone)} and another of the enrollment ${stays.status}`,
          removedRule,
        ),
  );
  collector.record(
    removedCheck('GET /accounts'),
    listed.status === 200 && isDeepStrictEqual(ids, others)
      ? undefined
      : http.failure(
          listed,
          `after removing ${removed.id} the token lists ${JSON.stringify(ids)}; expected the others ${JSON.stringify(others)}`,
          rule(V, describedAt('/accounts/{account_id}', 'delete'), "the enrollment's other accounts stay accessible"),
        ),
  );

  const revokedRule = rule(V, describedAt('/accounts', 'delete'), 'The access token is revoked: later requests with it answer `403 forbidden`.');
  const all = await http.send('DELETE', '/accounts', { version: V, token });
  for (const [operation, path] of [
    ['GET /accounts', '/accounts'],
    ['GET /accounts/{account_id}', `/accounts/${kept.id}`],
  ] as const) {
    const refused = await http.send('GET', path, { version: V, token });
    collector.record(
      at(V, operation, "reads: a removed enrollment's token is refused"),
      all.status === 204 && refused.status === 403 && errorCodeOf(refused) === 'forbidden'
        ? undefined
        : http.failure(refused, `after DELETE /accounts answered ${all.status}, ${path} answered ${shortly(refused)}`, revokedRule),
    );
  }
}

/** The failures on purpose: the answer carries `Retry-After`, and the same request after that many seconds is served. */
export async function checkRetryAfter(
  http: Http,
  collector: Collector,
  enroll: (username: string) => Promise<SandboxEnrollment | undefined>,
): Promise<void> {
  const check: Check = 'headers: after Retry-After seconds the retry is served';
  const cases: { username: string; operation: string; status: number; path: (enrolled: SandboxEnrollment) => string | undefined; words: string }[] = [
    {
      username: 'rate_limited.1',
      operation: 'GET /accounts',
      status: 429,
      path: () => '/accounts',
      words: "the token's first `n` requests (1 to 100) to the API answer `429 rate_limited` with `Retry-After: 1`, later ones are served",
    },
    {
      username: 'timeout.first_transactions',
      operation: 'GET /accounts/{account_id}/transactions',
      status: 504,
      path: (enrolled) => enrolled.accounts.find((a) => a.links.transactions)?.links.transactions,
      words: 'the first transactions request answers `504 gateway_timeout` with `Retry-After`, and the retry succeeds',
    },
  ];
  for (const scenario of cases) {
    const enrolled = await enroll(scenario.username);
    const target = enrolled && scenario.path(enrolled);
    if (!enrolled || !target) {
      collector.skip(at(V, scenario.operation, check), `the sandbox user ${scenario.username} could not be enrolled`);
      continue;
    }
    const send = () => http.send('GET', pathOf(http, target), { version: V, token: enrolled.access_token });
    const first = await send();
    const seconds = Number(first.headers.get('retry-after'));
    const waited = first.status === scenario.status && Number.isInteger(seconds) && seconds >= 0 && seconds <= 60;
    if (waited) await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
    const retry = waited ? await send() : first;
    collector.record(
      at(V, scenario.operation, check),
      waited && retry.status === 200
        ? undefined
        : http.failure(
            retry,
            waited
              ? `${scenario.username}: after ${seconds} s of Retry-After the retry answered ${shortly(retry)}`
              : `${scenario.username}: the first request answered ${shortly(first)} with Retry-After ${first.headers.get('retry-after')}, expected ${scenario.status} with a number of seconds`,
            sandboxRule('#/components/schemas/SandboxUsername/description', scenario.words),
          ),
    );
  }
}
