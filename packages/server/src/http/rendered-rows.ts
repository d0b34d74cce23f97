// Each transaction's JSON (UTF-8 bytes) as a page renders it, kept per row version, API version and base of links. A page that is
// rendered rather than replayed reads only its rows' ids and versions, joins the JSON kept for each, and renders
// only the rows it has not seen in that version. A row's version counts its updates in the database, where every
// process sees them: a changed row is a new key, so nothing kept can be stale; an unchanged one is the same JSON.
// The JSON depends on nothing else: the presenter reads the row and the base, and a version change rewrites a
// transaction on its own. Entries are not kept apart per enrollment: a page asks only for its own account's rows.
// Entries are found by the row's id alone (the string the database returned, hashed once), not by a key joined from
// the shape, id and version: building and hashing a hundred such keys cost a page more than the rest of the join.
import { LRUCache } from 'lru-cache';
import type { TransactionKey } from '../storage/store.ts';

export const DEFAULT_RENDERED_ROWS_BYTES = 8 * 1024 * 1024;

/** What an entry holds beside its texts: the entry, its list of shapes, the LRU's slots. */
const ENTRY_OVERHEAD_BYTES = 128;
/** What each shape of an entry holds beside its text and name: its pair. */
const SHAPE_OVERHEAD_BYTES = 32;

/** One row version's JSON in each shape it was rendered in (usually one). Replaced whole, never changed in place. */
interface RowEntry {
  version: number;
  shapes: readonly (readonly [shape: string, json: Buffer])[];
}

/** Bytes an entry counts against the budget; strings count two bytes a character (V8 may keep them as UTF-16). */
function entryBytes(entry: RowEntry, id: string): number {
  let bytes = ENTRY_OVERHEAD_BYTES + 2 * id.length;
  for (const [shape, json] of entry.shapes) bytes += json.byteLength + 2 * shape.length + SHAPE_OVERHEAD_BYTES;
  return bytes;
}

export class RenderedRows {
  /** Undefined with a budget of 0: nothing is kept. */
  private readonly entries: LRUCache<string, RowEntry> | undefined;
  hits = 0;
  misses = 0;

  constructor(maxBytes: number) {
    this.entries =
      maxBytes > 0
        ? new LRUCache<string, RowEntry>({
            maxSize: maxBytes,
            sizeCalculation: entryBytes,
          })
        : undefined;
  }

  /** Bytes counted against the budget. */
  get keptBytes(): number {
    return this.entries?.calculatedSize ?? 0;
  }

  /** `shape`: everything besides the row that the JSON depends on (the API version, the base of links). */
  get(shape: string, row: TransactionKey): Buffer | undefined {
    const entry = this.entries?.get(row.id);
    const json = entry?.version === row.version ? jsonIn(entry, shape) : undefined;
    if (json === undefined) this.misses += 1;
    else this.hits += 1;
    return json;
  }

  /** Keeps the JSON of this row version in `shape`, beside its other shapes; an older version's go. */
  set(shape: string, row: TransactionKey, json: Buffer): void {
    if (!this.entries) return;
    const kept = this.entries.peek(row.id);
    const others = kept?.version === row.version ? kept.shapes.filter(([name]) => name !== shape) : [];
    this.entries.set(row.id, { version: row.version, shapes: [...others, [shape, json]] });
  }
}

function jsonIn(entry: RowEntry, shape: string): Buffer | undefined {
  for (const [name, json] of entry.shapes) if (name === shape) return json;
  return undefined;
}
