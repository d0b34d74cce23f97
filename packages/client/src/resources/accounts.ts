// `client.accounts`: the accounts of the token's enrollment, their details and balances, and removing access.
import type { AccountWithLinks } from '../payments.ts';
import { type ApiRequest, type CallOptions, requireId } from '../request.ts';
import type { ResponseInfo } from '../response-info.ts';
import type { Account, AccountBalances, AccountDetails, CurrentVersion, Version } from '../versions.ts';

export type AccountsResource<V extends Version = CurrentVersion> = {
  list(options?: CallOptions): Promise<Account<V>[]>;
  get(accountId: string, options?: CallOptions): Promise<Account<V>>;
  /** Removes this application's access to one account (204). */
  delete(accountId: string, options?: CallOptions): Promise<ResponseInfo>;
  /** Removes access to every account of the token's enrollment (204). */
  deleteAll(options?: CallOptions): Promise<ResponseInfo>;
  /** Account and routing numbers; 404 while microdeposit verification is pending or expired. */
  details(accountId: string, options?: CallOptions): Promise<AccountDetails<V>>;
  balances(accountId: string, options?: CallOptions): Promise<AccountBalances<V>>;
};

/** The path parameters of an account and of its sub-resources (transactions, payees, payments). */
export function accountParams(accountId: string): { path: { account_id: string } } {
  return { path: { account_id: requireId(accountId, 'accountId') } };
}

/** Whether each account read so far can originate payments (its links have `payments`), by id. */
export class KnownAccountLinks {
  readonly #payments = new Map<string, boolean>();

  remember(account: unknown): void {
    const candidate = account as Partial<AccountWithLinks> | undefined;
    if (typeof candidate?.id === 'string' && candidate.links) {
      this.#payments.set(candidate.id, typeof candidate.links.payments === 'string');
    }
  }

  /** `undefined` when the account has not been read. */
  supportsPayments(accountId: string): boolean | undefined {
    return this.#payments.get(accountId);
  }
}

/** Every account read is remembered in `known`, so a payment after `accounts.list` needs no extra request for its guard. */
export function accountsResource<V extends Version>(request: ApiRequest, known: KnownAccountLinks): AccountsResource<V> {
  return {
    async list(call) {
      const accounts: Account<V>[] = await request.read('GET', '/accounts', {}, call);
      if (Array.isArray(accounts)) for (const account of accounts) known.remember(account);
      return accounts;
    },
    async get(accountId, call) {
      const account: Account<V> = await request.read('GET', '/accounts/{account_id}', { params: accountParams(accountId) }, call);
      known.remember(account);
      return account;
    },
    delete: async (accountId, call) => request.empty('DELETE', '/accounts/{account_id}', { params: accountParams(accountId) }, call),
    deleteAll: async (call) => request.empty('DELETE', '/accounts', {}, call),
    details: async (accountId, call) => request.read('GET', '/accounts/{account_id}/details', { params: accountParams(accountId) }, call),
    balances: async (accountId, call) => request.read('GET', '/accounts/{account_id}/balances', { params: accountParams(accountId) }, call),
  };
}
