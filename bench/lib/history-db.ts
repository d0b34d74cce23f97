// Read-only look into a seeded database file, to pick a `from_id` deep in a history without
// paging through it over HTTP. Knows only the transactions table's key columns and the order
// the API lists them in (date, then seq, newest first).
import { DatabaseSync } from 'node:sqlite';

export interface HistoryFacts {
  count: number;
  /** A transaction at `depth` of the newest-first list, with at least `after` older ones. */
  deepId: string;
  position: number;
}

export function historyFacts(databasePath: string, accountId: string, depth: number, after: number): HistoryFacts {
  const db = new DatabaseSync(databasePath, { readOnly: true });
  try {
    const count = countTransactions(databasePath, accountId);
    const position = Math.max(0, Math.min(Math.floor(count * depth), count - after - 1));
    const row = db.prepare('SELECT id FROM transactions WHERE account_id = ? ORDER BY date DESC, seq DESC LIMIT 1 OFFSET ?').get(accountId, position) as
      | { id: string }
      | undefined;
    if (!row) throw new Error(`no transaction at position ${position} of ${count} in account ${accountId}`);
    return { count, deepId: row.id, position };
  } finally {
    db.close();
  }
}

export function countRows(databasePath: string, table: string): number {
  if (!/^[a-z_]+$/.test(table)) throw new Error(`bad table name ${table}`);
  const db = new DatabaseSync(databasePath, { readOnly: true });
  try {
    return (db.prepare(`SELECT COUNT(*) AS count FROM ${table}`).get() as { count: number }).count;
  } finally {
    db.close();
  }
}

export function countTransactions(databasePath: string, accountId: string): number {
  const db = new DatabaseSync(databasePath, { readOnly: true });
  try {
    return (db.prepare('SELECT COUNT(*) AS count FROM transactions WHERE account_id = ?').get(accountId) as { count: number }).count;
  } finally {
    db.close();
  }
}
