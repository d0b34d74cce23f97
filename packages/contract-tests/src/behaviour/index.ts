// The behaviour checks: what a schema cannot say, checked on any server, each a named testcase reading a promise of the
// description (PROMISES.md lists them). They run in a fresh enrollment of the run's own application (or with the given
// token); the sandbox's scenarios, which change an application and its enrollments, in an application of their own,
// and only when the run may enroll. The errors and headers checks run last, over every exchange of the whole run (see
// errors.ts, headers.ts).
import { CURRENT_VERSION, VERSIONS } from '@aggregation/openapi/versions';
import type { Collector } from '../report/collect.ts';
import { emptyOutcome, type SuiteContext, type SuiteOutcome } from '../suite.ts';
import { checkApplicationVersion, checkWebhookSettings, createOwnApplication } from './applications.ts';
import { checkBalances } from './balances.ts';
import {
  checkClockAndRefresh,
  checkClose,
  checkDisconnect,
  checkRemovals,
  checkRetryAfter,
  enrollAtInstitution,
  type SandboxEnrollment,
} from './enrollments.ts';
import { checkAllow } from './headers.ts';
import { Http } from './http.ts';
import { checkIdempotency, type Paid } from './idempotency.ts';
import { checkLinks } from './links.ts';
import { checkPaging } from './paging.ts';
import { checkPayments } from './payments.ts';
import { MissingRule } from './rules.ts';
import { checkVersion } from './versions.ts';

export { checkErrorBodies } from './errors.ts';
export { checkHeaders } from './headers.ts';

type Account = { id: string; type: string; subtype: string; links: Record<string, string | undefined> };
type Guarded = (what: string, check: () => Promise<void>) => Promise<void>;

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]', '::1']);

export async function runBehaviourSuite(ctx: SuiteContext, collector: Collector): Promise<SuiteOutcome> {
  const outcome = emptyOutcome();
  const token = await ctx.sandbox.token();
  const http = new Http(ctx.baseUrl, ctx.server.baseUrl, token, ctx.sandbox.mode === 'token');
  const listed = await http.get('/accounts', CURRENT_VERSION);
  const accounts = Array.isArray(listed.json) ? (listed.json as Account[]) : [];
  const paying = accounts.find((a) => a.links.payments);
  const withHistory = accounts.find((a) => a.links.transactions);
  if (!withHistory) {
    outcome.errors.push(`the token's GET /accounts answered ${listed.status} with no account that has transactions: the behaviour checks need one`);
    return outcome;
  }
  const guarded: Guarded = async (what, check) => {
    try {
      await check();
    } catch (error) {
      outcome.errors.push(`${what}: ${error instanceof MissingRule ? error.message : ((error as Error).stack ?? String(error))}`);
    }
  };

  if (paying) {
    let paid: Paid | undefined;
    await guarded('idempotency', async () => {
      paid = await checkIdempotency(http, collector, CURRENT_VERSION, paying.id);
    });
    await guarded('payments', () => checkPayments(http, collector, CURRENT_VERSION, paying, paid));
  } else outcome.skipped.push('idempotency, payees and payments: no account of the token has `payments` in its links');
  for (const account of accounts.filter((a) => a.links.transactions && a.links.balances)) {
    await guarded(`balances of ${account.id}`, () => checkBalances(http, collector, CURRENT_VERSION, account));
  }
  for (const version of VERSIONS) {
    await guarded(`versions ${version}`, () => checkVersion(http, collector, version, withHistory.id));
    await guarded(`paging ${version}`, () => checkPaging(http, collector, version, withHistory.id));
    await guarded(`links ${version}`, () => checkLinks(http, collector, version));
    // Documented errors, so that even a run of this suite alone has error bodies for the errors check to judge.
    await http.get(`/accounts/acc_contract_tests_unknown`, version);
    await http.get(`/accounts/${withHistory.id}/transactions?count=0`, version);
  }
  await http.send('GET', '/accounts', { token: 'test_token_contract_tests_unknown' });
  await http.send('GET', '/accounts', { version: '1999-01-01' });
  await guarded('allow', () => checkAllow(http, collector));

  if (ctx.sandbox.enrolls) {
    const receiverReachable = LOOPBACK.has(new URL(ctx.server.baseUrl).hostname);
    await sandboxScenarios(http, collector, guarded, { otherToken: token, receiverReachable, waitMs: ctx.options.webhookWaitSeconds * 1000 });
  } else {
    outcome.skipped.push(
      "the sandbox's scenarios (an application's version and webhook settings, the clock, a refresh, closing, disconnecting, removing access, Retry-After): with --token the run enrolls nobody and changes no application",
    );
  }
  return outcome;
}

/** The sandbox control API's writes and what follows them, in an application of the checks' own. */
async function sandboxScenarios(
  http: Http,
  collector: Collector,
  guarded: Guarded,
  options: { otherToken: string; receiverReachable: boolean; waitMs: number },
): Promise<void> {
  const application = await createOwnApplication(http, collector);
  if (!application) return;
  const enroll = async (username: string): Promise<SandboxEnrollment | undefined> => {
    const created = await http.send('POST', '/sandbox/enrollments', { body: { username, password: 'password' }, token: application.key });
    return created.status === 201 ? (created.json as SandboxEnrollment) : undefined;
  };
  let enrolled: SandboxEnrollment | undefined;
  await guarded('sandbox enrollment', async () => {
    enrolled = await enrollAtInstitution(http, collector, application.key);
  });
  if (!enrolled) return;
  const main = enrolled;
  await guarded('sandbox application version', () => checkApplicationVersion(http, collector, main.access_token));
  await guarded('sandbox webhook settings', () =>
    checkWebhookSettings(http, collector, main.access_token, { ...options, enrollmentId: main.enrollment.id }),
  );
  await guarded('sandbox clock', () => checkClockAndRefresh(http, collector, main));
  await guarded('sandbox close and disconnect', async () => checkDisconnect(http, collector, main, await checkClose(http, collector, main)));
  await guarded('removals', async () => {
    const removing = await enroll('username');
    if (removing) await checkRemovals(http, collector, removing);
  });
  await guarded('Retry-After', () => checkRetryAfter(http, collector, enroll));
}
