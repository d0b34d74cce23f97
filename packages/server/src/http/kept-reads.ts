// Rows read for a request, kept per process and used again while their enrollment's scoped revision (for what they
// show) is the one they were read at. Every write that may change such a row moves that revision: the enrollment's
// own (scoped to it, or to the activity the row shows) and every write not scoped to one. So an entry is as current
// as a fresh read: on SQLite a read of one revision instead of the rows, on PostgreSQL nothing once the other
// processes' commits are known (a barrier, shared by the requests of the moment, or one already waited for). While
// the store's change mark has not moved since an entry was last found current, nothing was committed at all, and
// not even the revision is read (on SQLite a query, against one read of the WAL-index header).
import type { IncomingMessage } from 'node:http';
import { LRUCache } from 'lru-cache';
import { type ActivityShown, changesSynced, type Store } from '../storage/store.ts';

/** The enrollment whose revision a kept value follows, and which accounts' activity it shows. */
export interface KeptScope {
  enrollment: string;
  activity: ActivityShown;
}

/** Requests that arrived before a barrier answered (`Store.syncChanges`): no other is needed for them. */
export const syncedRequests = new WeakSet<IncomingMessage>();

interface Entry<V> {
  value: V;
  scope: KeptScope;
  revision: string;
  /** The store's change mark when the entry was last known current. */
  mark: string;
}

export class KeptReads<V> {
  private readonly store: Store;
  private readonly scopeOf: (value: V) => KeptScope;
  private readonly entries: LRUCache<string, Entry<V>>;
  hits = 0;

  constructor(store: Store, max: number, scopeOf: (value: V) => KeptScope) {
    this.store = store;
    this.scopeOf = scopeOf;
    this.entries = new LRUCache({ max });
  }

  /** The value kept under `key` while current, else `read()`'s (kept when nothing moved meanwhile). */
  async find(key: string, incoming: IncomingMessage | undefined, read: () => Promise<V | undefined>): Promise<V | undefined> {
    const { store } = this;
    if (!store.scopedRevision) return read();
    const known = this.entries.get(key);
    // Awaited only when it is a promise: a settled answer costs no turn of the microtask queue.
    const current = known && this.current(incoming);
    if (known && (current === true || (current !== false && (await current)))) {
      // Read before the revision: a commit in between shows in the revision, and the next request checks again.
      const mark = store.changeMark();
      if (known.mark === mark || store.scopedRevision(known.scope.enrollment, known.scope.activity) === known.revision) {
        known.mark = mark;
        this.hits += 1;
        return known.value;
      }
    }
    const mark = store.changeMark();
    const value = await read();
    if (value === undefined) return undefined;
    // Read after the row: a commit in between shows as a change since `mark`, and nothing is kept.
    const scope = this.scopeOf(value);
    const revision = store.scopedRevision(scope.enrollment, scope.activity);
    const changed = store.changedSince ? store.changedSince(scope.enrollment, mark, scope.activity) : store.changeMark() !== mark;
    if (changed) this.entries.delete(key);
    // Shared by the requests that find it: frozen, so that none changes it for the others.
    else this.entries.set(key, { value: Object.freeze(value), scope, revision, mark });
    return value;
  }

  /** Whether the store's revisions reflect every commit made before this request arrived. */
  private current(incoming: IncomingMessage | undefined): boolean | Promise<boolean> {
    const { store } = this;
    if (!store.syncChanges || (incoming && syncedRequests.has(incoming))) return true;
    return changesSynced(store).then((synced) => {
      // The barrier was asked for after the request arrived: the request's later reads need no other.
      if (synced && incoming) syncedRequests.add(incoming);
      return synced;
    });
  }
}
