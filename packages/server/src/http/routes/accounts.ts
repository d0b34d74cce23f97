// Accounts, their details and balances, and removing access.
import { type AccountAccess, accountFor, detailsOf, listAccounts, removeAccount } from '../../domain/accounts.ts';
import { revokeEnrollment } from '../../domain/enrollments.ts';
import type { AccountRow } from '../../storage/store.ts';
import type { AppContext, Runtime } from '../env.ts';
import { presentAccount, presentBalances, presentDetails } from '../present.ts';
import { apiJson, noContent } from '../respond.ts';
import type { Router } from '../router.ts';

/** The path's account, as the token's enrollment may see it. */
export function pathAccount(c: AppContext, runtime: Runtime, access: AccountAccess = {}): Promise<AccountRow> {
  return accountFor(runtime.deps, c.get('enrollment'), c.req.param('account_id')!, access);
}

export function accountRoutes(r: Router, runtime: Runtime): void {
  const api = { document: 'api' } as const;

  r.route('get', '/accounts', { ...api, operationId: 'listAccounts' }, async (c) => {
    const enrollment = c.get('enrollment');
    const rows = await listAccounts(runtime.deps, enrollment);
    const body = rows.map((row) => presentAccount(c.get('base'), row, enrollment.institution_id));
    return apiJson(c, runtime, 'listAccounts', 200, body);
  });

  r.route('delete', '/accounts', { ...api, operationId: 'deleteAccounts' }, async (c) => {
    await revokeEnrollment(runtime.deps, c.get('enrollment'));
    return noContent(c);
  });

  r.route('get', '/accounts/:account_id', { ...api, operationId: 'getAccount', enrollmentStatus: true }, async (c) => {
    const account = await pathAccount(c, runtime);
    return apiJson(c, runtime, 'getAccount', 200, presentAccount(c.get('base'), account, c.get('enrollment').institution_id));
  });

  r.route('delete', '/accounts/:account_id', { ...api, operationId: 'deleteAccount' }, async (c) => {
    const account = await pathAccount(c, runtime);
    await removeAccount(runtime.deps, c.get('enrollment'), account);
    return noContent(c);
  });

  r.route(
    'get',
    '/accounts/:account_id/details',
    { ...api, operationId: 'getAccountDetails', reachesInstitution: true, enrollmentStatus: true },
    async (c) => {
      const account = detailsOf(await pathAccount(c, runtime, { reachesInstitution: true }));
      return apiJson(c, runtime, 'getAccountDetails', 200, presentDetails(c.get('base'), account));
    },
  );

  r.route(
    'get',
    '/accounts/:account_id/balances',
    { ...api, operationId: 'getAccountBalances', reachesInstitution: true, enrollmentStatus: true },
    async (c) => {
      const account = await pathAccount(c, runtime, { reachesInstitution: true });
      return apiJson(c, runtime, 'getAccountBalances', 200, presentBalances(c.get('base'), account));
    },
  );
}
