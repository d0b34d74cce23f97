// Accounts, their details and balances, and removing access.
import { type AccountAccess, detailsOf, listAccounts, removeAccount } from '../../domain/accounts.ts';
import { revokeEnrollment } from '../../domain/enrollments.ts';
import type { AccountRow } from '../../storage/store.ts';
import { answer } from '../answer.ts';
import type { AppContext, Runtime } from '../env.ts';
import { keptAccountFor } from '../kept-accounts.ts';
import { presentAccount, presentBalances, presentDetails } from '../present.ts';
import type { ApiHandlers } from './types.ts';

/** The path's account, as the token's enrollment may see it: its row read, or kept while current (kept-accounts.ts). */
export function pathAccount(c: AppContext, runtime: Runtime, access: AccountAccess = {}): Promise<AccountRow> {
  return keptAccountFor(runtime, c.get('enrollment'), c.req.param('account_id')!, c.env?.incoming, access);
}

export const accountHandlers = {
  listAccounts: {
    handle: async (c, runtime) => {
      const enrollment = c.get('enrollment');
      const rows = await listAccounts(runtime.deps, enrollment);
      const body = rows.map((row) => presentAccount(c.get('base'), row, enrollment.institution_id));
      return answer.json(c, runtime, 'listAccounts', 200, body);
    },
  },

  deleteAccounts: {
    handle: async (c, runtime) => {
      await revokeEnrollment(runtime.deps, c.get('enrollment'));
      return answer.noContent(c, 'deleteAccounts');
    },
  },

  getAccount: {
    enrollmentStatus: true,
    handle: async (c, runtime) => {
      const account = await pathAccount(c, runtime);
      return answer.json(c, runtime, 'getAccount', 200, presentAccount(c.get('base'), account, c.get('enrollment').institution_id));
    },
  },

  deleteAccount: {
    handle: async (c, runtime) => {
      const account = await pathAccount(c, runtime);
      await removeAccount(runtime.deps, c.get('enrollment'), account);
      return answer.noContent(c, 'deleteAccount');
    },
  },

  getAccountDetails: {
    reachesInstitution: true,
    enrollmentStatus: true,
    handle: async (c, runtime) => {
      const account = detailsOf(await pathAccount(c, runtime, { reachesInstitution: true }));
      return answer.json(c, runtime, 'getAccountDetails', 200, presentDetails(c.get('base'), account));
    },
  },

  getAccountBalances: {
    reachesInstitution: true,
    enrollmentStatus: true,
    handle: async (c, runtime) => {
      const account = await pathAccount(c, runtime, { reachesInstitution: true });
      return answer.json(c, runtime, 'getAccountBalances', 200, presentBalances(c.get('base'), account));
    },
  },
} satisfies Partial<ApiHandlers>;
