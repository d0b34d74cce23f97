// The behaviour checks: what a schema cannot say, checked on any server, each a named testcase. They run in a fresh
// enrollment of the run's own application (or with the given token); the errors check runs last, over every error
// body of the whole run (see errors.ts).
import { CURRENT_VERSION, VERSIONS } from '@aggregation/openapi/versions';
import type { Collector } from '../report/collect.ts';
import { emptyOutcome, type SuiteContext, type SuiteOutcome } from '../suite.ts';
import { checkBalances } from './balances.ts';
import { Http } from './http.ts';
import { checkIdempotency } from './idempotency.ts';
import { checkLinks } from './links.ts';
import { checkPaging } from './paging.ts';
import { MissingRule } from './rules.ts';
import { checkVersion } from './versions.ts';

export { checkErrorBodies } from './errors.ts';

type Account = { id: string; type: string; subtype: string; links: Record<string, string | undefined> };

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
  const guarded = async (what: string, check: () => Promise<void>) => {
    try {
      await check();
    } catch (error) {
      outcome.errors.push(`${what}: ${error instanceof MissingRule ? error.message : ((error as Error).stack ?? String(error))}`);
    }
  };

  if (paying) await guarded('idempotency', () => checkIdempotency(http, collector, CURRENT_VERSION, paying.id));
  else outcome.skipped.push('idempotency and a payment on the balances: no account of the token has `payments` in its links');
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
  return outcome;
}
