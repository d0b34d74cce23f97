// Each transaction's JSON (UTF-8 bytes) as a page renders it, kept per row version, API version and base of links. A page that is
// rendered rather than replayed reads only its rows' ids and versions, joins the JSON kept for each, and renders
// only the rows it has not seen in that version. A row's version counts its updates in the database, where every
// process sees them: a changed row is a new key, so nothing kept can be stale; an unchanged one is the same JSON.
// The JSON depends on nothing else: the presenter reads the row and the base, and a version change rewrites a
// transaction on its own. Entries are not kept apart per enrollment: a page asks only for its own account's rows.
import { LRUCache } from 'lru-cache';
import type { TransactionKey } from '../storage/store.ts';

export const DEFAULT_RENDERED_ROWS_BYTES = 8 * 1024 * 1024;

/** What an entry holds beside its text: the entry, the LRU's slots. */
const ENTRY_OVERHEAD_BYTES = 96;

export class RenderedRows {
  /** Undefined with a budget of 0: nothing is kept. */
  private readonly entries: LRUCache<string, Buffer> | undefined;
  hits = 0;
  misses = 0;

  constructor(maxBytes: number) {
    this.entries =
      maxBytes > 0
        ? new LRUCache<string, Buffer>({
            maxSize: maxBytes,
            // The key counts two bytes a character (V8 may keep a string as UTF-16).
            sizeCalculation: (json, key) => json.byteLength + 2 * key.length + ENTRY_OVERHEAD_BYTES,
          })
        : undefined;
  }

  /** Bytes counted against the budget. */
  get keptBytes(): number {
    return this.entries?.calculatedSize ?? 0;
  }

  /** `shape`: everything besides the row that the JSON depends on (the API version, the base of links). */
  get(shape: string, row: TransactionKey): Buffer | undefined {
    const json = this.entries?.get(keyOf(shape, row));
    if (json === undefined) this.misses += 1;
    else this.hits += 1;
    return json;
  }

  set(shape: string, row: TransactionKey, json: Buffer): void {
    this.entries?.set(keyOf(shape, row), json);
  }
}

const keyOf = (shape: string, row: TransactionKey) => `${shape}\n${row.id}\n${row.version}`;
