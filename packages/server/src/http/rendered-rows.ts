// Each transaction's JSON (UTF-8 bytes) as a page renders it, kept per row stamp, API version and base of links. A page
// that is rendered rather than replayed reads only its rows' stamps, joins the JSON kept for each, and renders only the
// rows it has not seen. A stamp names one version of one row, and the database never gives it to another row or
// version (storage/sqlite/migrations.ts, 8), in every process: a changed row has a new stamp, so nothing kept can be
// stale; an unchanged one is the same JSON. An old stamp's JSON is not asked for again and goes as the least recently
// used. The JSON depends on nothing else: the presenter reads the row and the base, and a version change rewrites a
// transaction on its own. Entries are not kept apart per enrollment: a page asks only for its own account's rows.
// Entries are found by the stamp alone, an integer, not by a key joined from the shape and the row: building and
// hashing a hundred such keys cost a page more than the rest of the join.
import { LRUCache } from 'lru-cache';

export const DEFAULT_RENDERED_ROWS_BYTES = 8 * 1024 * 1024;

const MAX_SHAPES = 256;

/** What an entry holds beside its texts: the entry, its list of shapes, the LRU's slots. */
const ENTRY_OVERHEAD_BYTES = 128;
/** What each shape of an entry holds beside its text and name: its pair. */
const SHAPE_OVERHEAD_BYTES = 32;

/** One row version's JSON in each shape it was rendered in (usually one). Replaced whole, never changed in place. */
type RowEntry = readonly (readonly [shape: string, json: Buffer])[];

/** Bytes an entry counts against the budget; strings count two bytes a character (V8 may keep them as UTF-16). */
function entryBytes(entry: RowEntry): number {
  let bytes = ENTRY_OVERHEAD_BYTES;
  for (const [shape, json] of entry) bytes += json.byteLength + 2 * shape.length + SHAPE_OVERHEAD_BYTES;
  return bytes;
}

export class RenderedRows {
  /** Undefined with a budget of 0: nothing is kept. */
  private readonly entries: LRUCache<number, RowEntry> | undefined;
  /** Shapes seen: a few versions times the bases clients call (each Host, without a public URL). */
  private readonly shapes = new LRUCache<string, string>({ max: MAX_SHAPES });
  hits = 0;
  misses = 0;

  constructor(maxBytes: number) {
    this.entries =
      maxBytes > 0
        ? new LRUCache<number, RowEntry>({
            maxSize: maxBytes,
            sizeCalculation: entryBytes,
          })
        : undefined;
  }

  /**
   * The shape of a version and base, as the one string kept for them: finding each row's JSON then compares a
   * string with itself, not with an equal one built for this request.
   */
  shapeOf(version: string, base: string): string {
    const shape = `${version}\n${base}`;
    const known = this.shapes.get(shape);
    if (known !== undefined) return known;
    this.shapes.set(shape, shape);
    return shape;
  }

  /** Bytes counted against the budget. */
  get keptBytes(): number {
    return this.entries?.calculatedSize ?? 0;
  }

  /** `shape`: everything besides the row that the JSON depends on (the API version, the base of links). */
  get(shape: string, stamp: number): Buffer | undefined {
    const entry = this.entries?.get(stamp);
    const json = entry && jsonIn(entry, shape);
    if (json === undefined) this.misses += 1;
    else this.hits += 1;
    return json;
  }

  /** Keeps the JSON of the row version `stamp` in `shape`, beside its other shapes. */
  set(shape: string, stamp: number, json: Buffer): void {
    if (!this.entries) return;
    const others = this.entries.peek(stamp)?.filter(([name]) => name !== shape) ?? [];
    this.entries.set(stamp, [...others, [shape, json]]);
  }
}

/** Indexed, not iterated: a page looks up a hundred entries. */
function jsonIn(entry: RowEntry, shape: string): Buffer | undefined {
  for (let index = 0; index < entry.length; index += 1) {
    const pair = entry[index]!;
    if (pair[0] === shape) return pair[1];
  }
  return undefined;
}
