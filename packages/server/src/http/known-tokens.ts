// What authentication reads for a token, its enrollment and the enrollment's application, kept per process and used
// again while the enrollment's scoped revision is the one they were read at. Every write that may change either moves
// that revision: the enrollment's own (scoped to it) and every write not scoped to one (an application's settings
// and version among them). So an entry is as current as a fresh read: a token's next request reads one revision
// instead of two rows on SQLite, and on PostgreSQL nothing once the other processes' commits are known (a barrier,
// shared by the requests of the moment, or the one the read cache already waited for). While the store's change mark
// has not moved since an entry was last found current, nothing was committed at all, and not even the revision is
// read (on SQLite a query per request, against one read of the WAL-index header).
import type { IncomingMessage } from 'node:http';
import { LRUCache } from 'lru-cache';
import { type ApplicationRow, changesSynced, type EnrollmentRow, type Store } from '../storage/store.ts';

export interface TokenReads {
  enrollment: EnrollmentRow;
  application: ApplicationRow;
}

/** Tokens kept at most: about a kilobyte each. */
const MAX_TOKENS = 2_000;
/** A token's reads (its enrollment and application) show no account's activity: a payment leaves them current. */
const NO_ACTIVITY = 'none';

/** Requests that arrived before a barrier the read cache saw answered (`Store.syncChanges`): no other is needed. */
export const syncedRequests = new WeakSet<IncomingMessage>();

export class KnownTokens {
  private readonly store: Store;
  /** `mark`: the store's change mark when the entry was last known current. */
  private readonly entries = new LRUCache<string, TokenReads & { revision: string; mark: string }>({ max: MAX_TOKENS });
  hits = 0;

  constructor(store: Store) {
    this.store = store;
  }

  /** The reads for the token of this hash: kept ones while current, else `read()`'s (kept when nothing moved meanwhile). */
  async find(tokenHash: string, incoming: IncomingMessage | undefined, read: () => Promise<TokenReads | undefined>): Promise<TokenReads | undefined> {
    const { store } = this;
    if (!store.scopedRevision) return read();
    const known = this.entries.get(tokenHash);
    // Awaited only when it is a promise: a settled answer costs no turn of the microtask queue.
    const current = known && this.current(incoming);
    if (known && (current === true || (current !== false && (await current)))) {
      // Read before the revision: a commit in between shows in the revision, and the next request checks again.
      const mark = store.changeMark();
      if (known.mark === mark || store.scopedRevision(known.enrollment.id, NO_ACTIVITY) === known.revision) {
        known.mark = mark;
        this.hits += 1;
        return known;
      }
    }
    const mark = store.changeMark();
    const found = await read();
    if (!found) return undefined;
    // Read after the rows: a commit in between shows as a change since `mark`, and nothing is kept.
    const revision = store.scopedRevision(found.enrollment.id, NO_ACTIVITY);
    const changed = store.changedSince ? store.changedSince(found.enrollment.id, mark, NO_ACTIVITY) : store.changeMark() !== mark;
    if (changed) this.entries.delete(tokenHash);
    else this.entries.set(tokenHash, { ...found, revision, mark });
    return found;
  }

  /** Whether the store's revisions reflect every commit made before this request arrived. */
  private current(incoming: IncomingMessage | undefined): boolean | Promise<boolean> {
    const { store } = this;
    if (!store.syncChanges || (incoming && syncedRequests.has(incoming))) return true;
    return changesSynced(store);
  }
}
