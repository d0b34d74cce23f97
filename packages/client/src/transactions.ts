// Paging and sync over `GET /accounts/{account_id}/transactions`. Both take the page fetcher as a function so that
// the logic does not depend on HTTP and runs the same for every version's transaction shape.
import { ApiError, ConnectionError } from './errors.ts';
import { sleep as defaultSleep } from './retry.ts';

/** What paging and sync need of a transaction; `status` is absent in 2019-07-01. */
export type TransactionLike = { id: string; date: string; status?: string };

export type PageQuery = { count: number; from_id?: string; start_date?: string; end_date?: string };
export type PageFetcher<T> = (query: PageQuery, signal?: AbortSignal) => Promise<T[]>;

/** A date as `YYYY-MM-DD`; a Date is taken in UTC. */
export type DateInput = string | Date;

export type IterateOptions = {
  /** Inclusive, `YYYY-MM-DD` or a Date. */
  startDate?: DateInput;
  /** Inclusive, `YYYY-MM-DD` or a Date. */
  endDate?: DateInput;
  /** `count` of each request. Default 100. */
  pageSize?: number;
  /** Resume after this transaction id (the `from_id` cursor). */
  fromId?: string;
  signal?: AbortSignal;
};

export const DEFAULT_PAGE_SIZE = 100;
/** Largest `count` the service accepts. */
export const MAX_PAGE_SIZE = 10_000;

export function toIsoDate(value: DateInput): string {
  if (typeof value === 'string') {
    if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) throw new RangeError(`Not a YYYY-MM-DD date: ${value}`);
    return value;
  }
  return value.toISOString().slice(0, 10);
}

/**
 * Pages through a date range, newest first: each request asks for `count` transactions older than the last one
 * received (`from_id`). Stops on a short page; ids already yielded are skipped, and a page with nothing new ends
 * the walk, so a server that ignores the cursor cannot cause an endless loop.
 */
export async function* iteratePages<T extends TransactionLike>(
  fetchPage: PageFetcher<T>,
  options: IterateOptions = {},
): AsyncGenerator<T[], void, undefined> {
  const count = options.pageSize ?? DEFAULT_PAGE_SIZE;
  if (!Number.isInteger(count) || count < 1 || count > MAX_PAGE_SIZE) {
    throw new RangeError(`pageSize must be an integer from 1 to ${MAX_PAGE_SIZE}: ${count}`);
  }
  const base: PageQuery = { count };
  if (options.startDate !== undefined) base.start_date = toIsoDate(options.startDate);
  if (options.endDate !== undefined) base.end_date = toIsoDate(options.endDate);

  const seen = new Set<string>();
  let fromId = options.fromId;
  for (;;) {
    options.signal?.throwIfAborted();
    const page = await fetchPage(fromId === undefined ? { ...base } : { ...base, from_id: fromId }, options.signal);
    const fresh = page.filter((transaction) => !seen.has(transaction.id));
    for (const transaction of fresh) seen.add(transaction.id);
    if (fresh.length) yield fresh;
    const last = page.at(-1);
    if (page.length < count || fresh.length === 0 || last === undefined) return;
    fromId = last.id;
  }
}

/** Every transaction of a date range, one at a time; see {@link iteratePages}. */
export async function* iterateTransactions<T extends TransactionLike>(
  fetchPage: PageFetcher<T>,
  options: IterateOptions = {},
): AsyncGenerator<T, void, undefined> {
  for await (const page of iteratePages(fetchPage, options)) yield* page;
}

/** Kept between syncs of one account. */
export type SyncState = {
  /** When the previous sync started (ISO 8601 timestamp). */
  lastSyncedAt: string;
};

export type SyncOptions<T extends TransactionLike> = {
  /** The previous sync's state; omit for the first sync, which reads the whole history. */
  state?: SyncState | undefined;
  /**
   * Transactions already stored for the account: at least those dated inside the sync window.
   * A Map keyed by id, or any iterable of transactions.
   */
  known?: ReadonlyMap<string, T> | Iterable<T>;
  /** Days before the last sync that are read again, to catch pending transactions that posted on another date. 7–10, default 10. */
  overlapDays?: number;
  pageSize?: number;
  now?: Date;
  /** Extra attempts of the first request when it times out or the service is unavailable (large histories). Default 2. */
  firstCallRetries?: number;
  /** Pause before each of those attempts. Default 5 s. */
  firstCallRetryDelayMs?: number;
  signal?: AbortSignal;
  /** Replaceable clock, for tests. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
};

export type SyncResult<T> = {
  /** Ids not stored before. */
  inserted: T[];
  /** Stored ids whose content changed (posting, enrichment, date shift). */
  updated: T[];
  /**
   * Stored pending transactions inside the window that the service no longer returns: a pending transaction
   * that was replaced by a posted one with a new id. Delete them.
   */
  removed: T[];
  /** Stored ids returned unchanged. */
  unchanged: number;
  /** The date range that was read; no `end_date` means up to the present. */
  window: { start_date?: string };
  /** Store it and pass it to the next sync. */
  state: SyncState;
};

export const MIN_OVERLAP_DAYS = 7;
export const MAX_OVERLAP_DAYS = 10;

/** The first date read by a sync: `overlapDays` before the last sync, clamped to the recommended 7–10 days. */
export function syncWindowStart(lastSyncedAt: string | Date, overlapDays: number = MAX_OVERLAP_DAYS): string {
  const days = Math.min(MAX_OVERLAP_DAYS, Math.max(MIN_OVERLAP_DAYS, Math.round(overlapDays)));
  const last = typeof lastSyncedAt === 'string' ? new Date(lastSyncedAt) : lastSyncedAt;
  if (Number.isNaN(last.getTime())) throw new RangeError(`Not a timestamp: ${String(lastSyncedAt)}`);
  return toIsoDate(new Date(last.getTime() - days * 86_400_000));
}

/**
 * Reads the sync window and reconciles it by id with what is stored: unknown ids are inserted, known ones updated
 * when they changed, and stored pending transactions of the window that vanished are reported as removed.
 */
export async function syncTransactions<T extends TransactionLike>(fetchPage: PageFetcher<T>, options: SyncOptions<T> = {}): Promise<SyncResult<T>> {
  const startedAt = options.now ?? new Date();
  const window: { start_date?: string } = {};
  if (options.state) window.start_date = syncWindowStart(options.state.lastSyncedAt, options.overlapDays);

  const fetched: T[] = [];
  const pages = iteratePages(withFirstCallRetry(fetchPage, options), {
    ...(window.start_date ? { startDate: window.start_date } : {}),
    ...(options.pageSize ? { pageSize: options.pageSize } : {}),
    ...(options.signal ? { signal: options.signal } : {}),
  });
  for await (const page of pages) fetched.push(...page);

  return {
    ...reconcileTransactions(toMap(options.known), fetched, window),
    window,
    state: { lastSyncedAt: startedAt.toISOString() },
  };
}

/** The reconciliation step of a sync, on its own: stored transactions vs. those just read for `window`. */
export function reconcileTransactions<T extends TransactionLike>(
  known: ReadonlyMap<string, T>,
  fetched: readonly T[],
  window: { start_date?: string } = {},
): Pick<SyncResult<T>, 'inserted' | 'updated' | 'removed' | 'unchanged'> {
  const inserted: T[] = [];
  const updated: T[] = [];
  let unchanged = 0;
  const fetchedIds = new Set<string>();
  for (const transaction of fetched) {
    fetchedIds.add(transaction.id);
    const previous = known.get(transaction.id);
    if (previous === undefined) inserted.push(transaction);
    else if (deepEqual(previous, transaction)) unchanged++;
    else updated.push(transaction);
  }
  const removed: T[] = [];
  for (const transaction of known.values()) {
    if (fetchedIds.has(transaction.id) || transaction.status !== 'pending') continue;
    // Outside the window nothing was read, so absence there proves nothing.
    if (window.start_date && transaction.date < window.start_date) continue;
    removed.push(transaction);
  }
  return { inserted, updated, removed, unchanged };
}

/** The first request of a large history can time out; it is tried again after a pause. Later pages are not. */
function withFirstCallRetry<T>(fetchPage: PageFetcher<T>, options: SyncOptions<TransactionLike>): PageFetcher<T> {
  const retries = options.firstCallRetries ?? 2;
  const delayMs = options.firstCallRetryDelayMs ?? 5_000;
  const wait = options.sleep ?? defaultSleep;
  let first = true;
  return async (query, signal) => {
    if (!first) return fetchPage(query, signal);
    first = false;
    for (let attempt = 0; ; attempt++) {
      try {
        return await fetchPage(query, signal);
      } catch (error) {
        if (attempt >= retries || !isTimeoutLike(error)) throw error;
        await wait(delayMs, signal);
      }
    }
  };
}

function isTimeoutLike(error: unknown): boolean {
  if (error instanceof ConnectionError) return true;
  return error instanceof ApiError && [408, 500, 502, 503, 504].includes(error.status);
}

function toMap<T extends TransactionLike>(known: SyncOptions<T>['known']): ReadonlyMap<string, T> {
  if (known === undefined) return new Map();
  if (known instanceof Map) return known;
  const map = new Map<string, T>();
  for (const transaction of known as Iterable<T>) map.set(transaction.id, transaction);
  return map;
}

/** Structural equality of JSON values; key order does not matter. */
export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a) && Array.isArray(b)) {
    return a.length === b.length && a.every((item, index) => deepEqual(item, b[index]));
  }
  const aKeys = Object.keys(a);
  const bKeys = Object.keys(b);
  if (aKeys.length !== bKeys.length) return false;
  return aKeys.every((key) => Object.hasOwn(b, key) && deepEqual((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key]));
}
