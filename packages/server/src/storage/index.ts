// Picks the storage implementation: PostgreSQL when a database URL is given (several server
// processes may share it), otherwise the embedded SQLite store on a file or in memory.
import { describeUrl } from './postgres/connection.ts';
import { openPostgresStore } from './postgres/index.ts';
import { openSqliteStore } from './sqlite/index.ts';
import type { Store } from './store.ts';

export type { Repos, Store } from './store.ts';

export interface StorageOptions {
  /** SQLite file path, or ':memory:' (the default). */
  path?: string;
  /** `postgres://user:password@host:port/database`: PostgreSQL instead of SQLite. */
  url?: string;
  /** SQLite: how long to wait for another process's lock on the file (default 5 s). */
  busyTimeoutMs?: number;
}

export function openStore(options: StorageOptions): Store {
  if (options.url) return openPostgresStore({ url: options.url });
  return openSqliteStore({
    path: options.path ?? ':memory:',
    ...(options.busyTimeoutMs !== undefined ? { busyTimeoutMs: options.busyTimeoutMs } : {}),
  });
}

/** Which database the options select, for logs (never a password). */
export function describeStorage(options: StorageOptions): string {
  if (options.url) return `PostgreSQL ${describeUrl(options.url)}`;
  return `SQLite ${options.path ?? ':memory:'}`;
}
