// Picks the storage implementation. Only the embedded SQLite store exists so far; a
// PostgreSQL store implements the same `Store` interface.
import { openSqliteStore } from './sqlite/index.ts';
import type { Store } from './store.ts';

export type { Store, Repos } from './store.ts';

export interface StorageOptions {
  /** SQLite file path, or ':memory:'. */
  path: string;
}

export function openStore(options: StorageOptions): Store {
  return openSqliteStore({ path: options.path });
}
