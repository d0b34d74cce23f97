// `client.transactions`: one page or one transaction as asked, and the paging and sync of transactions.ts over
// `GET /accounts/{account_id}/transactions`.
import type { ApiRequest, CallOptions } from '../request.ts';
import { requireId } from '../request.ts';
import {
  type IterateOptions,
  iteratePages,
  iterateTransactions,
  type PageFetcher,
  type SyncOptions,
  type SyncResult,
  syncTransactions,
  type TransactionLike,
} from '../transactions.ts';
import type { CurrentVersion, Transaction, TransactionQuery, Version } from '../versions.ts';
import { accountParams } from './accounts.ts';

export type TransactionSyncOptions<V extends Version> = SyncOptions<Transaction<V> & TransactionLike>;

export type TransactionsResource<V extends Version = CurrentVersion> = {
  /** One page, exactly as the query asks. */
  list(accountId: string, query?: TransactionQuery<V>, options?: CallOptions): Promise<Transaction<V>[]>;
  get(accountId: string, transactionId: string, options?: CallOptions): Promise<Transaction<V>>;
  /** Every transaction of a date range, paging with `count` and `from_id`. */
  iterate(accountId: string, options?: IterateOptions): AsyncGenerator<Transaction<V>, void, undefined>;
  /** The same walk, a page at a time. */
  pages(accountId: string, options?: IterateOptions): AsyncGenerator<Transaction<V>[], void, undefined>;
  /** Reads the window since the last sync and reconciles it with the stored transactions. */
  sync(accountId: string, options?: TransactionSyncOptions<V>): Promise<SyncResult<Transaction<V>>>;
};

export function transactionsResource<V extends Version>(request: ApiRequest): TransactionsResource<V> {
  const list = '/accounts/{account_id}/transactions';
  const pageFetcher =
    (accountId: string): PageFetcher<Transaction<V> & TransactionLike> =>
    (query, signal) =>
      request.read('GET', list, { params: { ...accountParams(accountId), query } }, signal ? { signal } : undefined);

  return {
    list: async (accountId, query, call) => request.read('GET', list, { params: { ...accountParams(accountId), query: query ?? {} } }, call),
    get: async (accountId, transactionId, call) =>
      request.read(
        'GET',
        '/accounts/{account_id}/transactions/{transaction_id}',
        { params: { path: { ...accountParams(accountId).path, transaction_id: requireId(transactionId, 'transactionId') } } },
        call,
      ),
    iterate: (accountId, options) => iterateTransactions(pageFetcher(accountId), options),
    pages: (accountId, options) => iteratePages(pageFetcher(accountId), options),
    sync: async (accountId, options) => syncTransactions(pageFetcher(accountId), options),
  };
}
