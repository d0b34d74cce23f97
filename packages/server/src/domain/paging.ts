// Long lists read newest first in keyset pages, as the consumer pulls them: a list of any length
// never sits in memory whole, and a deep page costs what the first does.

export interface KeysetOptions<Cursor> {
  /** Only rows strictly after this position. */
  from?: Cursor | undefined;
  /** At most this many rows (default: all). */
  count?: number | undefined;
  /** Rows per read (default 500). */
  chunk?: number;
}

/** Pulls pages from `readPage` (rows after `before`, at most `limit`) until the list or `count` ends. */
export function keysetPages<Row, Cursor>(
  readPage: (before: Cursor | undefined, limit: number) => Promise<Row[]>,
  cursorOf: (row: Row) => Cursor,
  options: KeysetOptions<Cursor> = {},
): AsyncIterable<Row[]> {
  const chunk = options.chunk ?? 500;
  return {
    async *[Symbol.asyncIterator]() {
      let cursor = options.from;
      let remaining = options.count ?? Number.POSITIVE_INFINITY;
      while (remaining > 0) {
        const limit = Math.min(chunk, remaining);
        const rows = await readPage(cursor, limit);
        if (rows.length > 0) yield rows;
        remaining -= rows.length;
        if (rows.length < limit) return;
        cursor = cursorOf(rows[rows.length - 1]!);
      }
    },
  };
}

/** The rows of `keysetPages`, one at a time. */
export function keysetRows<Row, Cursor>(
  readPage: (before: Cursor | undefined, limit: number) => Promise<Row[]>,
  cursorOf: (row: Row) => Cursor,
  options: KeysetOptions<Cursor> = {},
): AsyncIterable<Row> {
  const pages = keysetPages(readPage, cursorOf, options);
  return {
    async *[Symbol.asyncIterator]() {
      for await (const rows of pages) yield* rows;
    },
  };
}
