// Embedded storage on node:sqlite. One write connection, serialized by a lock so that a
// transaction's statements never interleave with another's, and concurrent transactions share a
// commit (group-commit.ts); with a file, reads use a second connection that sees committed data
// only (WAL lets it read while a write is open).
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import type { DatabaseSync, SQLInputValue, StatementSync } from 'node:sqlite';
import { requireNodeSqlite } from '../../node-version.ts';
import { identifier, type SqlConnection, sqlRepos } from '../sql/repos.ts';
import { type ChangeScope, countsNoRevision, type Repos, type Store, StoreUnavailable, UniqueViolation } from '../store.ts';
import { GroupCommit } from './group-commit.ts';
import { migrations } from './migrations.ts';
import { type RowReader, rowReader } from './rows.ts';
import { watchWalIndex } from './wal-index.ts';

export interface SqliteOptions {
  /** File path, or ':memory:'. */
  path: string;
  /** How long a statement waits for another process's lock on the file before giving up (default 5 s). */
  busyTimeoutMs?: number;
}

/**
 * Primary result codes of a file that cannot serve for now: BUSY, LOCKED (another process holds it past
 * the timeout), IOERR, FULL, CANTOPEN, PROTOCOL.
 */
const UNAVAILABLE_CODES = new Set([5, 6, 10, 13, 14, 15]);

/** `error` as StoreUnavailable when SQLite says the file cannot serve for now; otherwise unchanged. */
function storeError(error: unknown): unknown {
  const code = (error as { errcode?: unknown } | null)?.errcode;
  if (typeof code !== 'number' || !UNAVAILABLE_CODES.has(code & 0xff)) return error;
  return new StoreUnavailable(`SQLite is unavailable: ${(error as Error).message}`, { cause: error });
}

type Row = Record<string, unknown>;

function toDb(value: unknown): SQLInputValue {
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (value === undefined) return null;
  return value as SQLInputValue;
}

/** A node:sqlite connection as the shared repositories use it. */
export class SqliteConnection implements SqlConnection {
  readonly db: DatabaseSync;
  private readonly statements = new Map<string, StatementSync>();
  private readonly readers = new Map<string, RowReader>();
  private readonly packed = new Map<string, StatementSync>();
  // Write transactions are serialized (BEGIN IMMEDIATE under one lock): plain reads hold.
  readonly forUpdate = '';
  readonly forUpdateSkipLocked = '';
  readonly inList = 'IN (SELECT value FROM json_each(?))';
  readonly inIntegerList = this.inList;
  // SQLite plans with a LIMIT's bound value, so a statement with `LIMIT ?` is prepared again (parsed and planned) each
  // time it is bound: most of a page's keys read. The value of a subquery is not known to the planner.
  readonly limit = 'LIMIT (SELECT ?)';
  list(values: readonly (string | number)[]): string {
    return JSON.stringify(values);
  }

  constructor(db: DatabaseSync) {
    this.db = db;
  }

  private prepare(sql: string): StatementSync {
    let statement = this.statements.get(sql);
    if (!statement) {
      statement = this.db.prepare(sql);
      this.statements.set(sql, statement);
    }
    return statement;
  }

  /** The statement's rows as plain objects, built by a reader made once per statement (rows.ts). */
  private reader(sql: string): RowReader {
    let reader = this.readers.get(sql);
    if (!reader) {
      reader = rowReader(this.db.prepare(sql));
      this.readers.set(sql, reader);
    }
    return reader;
  }

  all<T>(sql: string, ...params: unknown[]): T[] {
    try {
      return this.reader(sql).all(params.map(toDb)) as T[];
    } catch (error) {
      throw storeError(error);
    }
  }

  get<T>(sql: string, ...params: unknown[]): T | undefined {
    try {
      return this.reader(sql).get(params.map(toDb)) as T | undefined;
    } catch (error) {
      throw storeError(error);
    }
  }

  /** The rows' order is the subquery's: SQLite aggregates a subquery with a LIMIT as it yields its rows. */
  values<T>(sql: string, ...params: unknown[]): T[] {
    let statement = this.packed.get(sql);
    if (!statement) {
      statement = this.db.prepare(`SELECT json_group_array(value) FROM (${sql})`);
      statement.setReturnArrays(true);
      this.packed.set(sql, statement);
    }
    try {
      return JSON.parse((statement.get(...params.map(toDb)) as unknown as [string])[0]) as T[];
    } catch (error) {
      throw storeError(error);
    }
  }

  run(sql: string, ...params: unknown[]): void {
    try {
      this.prepare(sql).run(...params.map(toDb));
    } catch (error) {
      const code = (error as { errcode?: number }).errcode;
      // SQLITE_CONSTRAINT_PRIMARYKEY (1555) and SQLITE_CONSTRAINT_UNIQUE (2067)
      if (code === 1555 || code === 2067) throw new UniqueViolation((error as Error).message);
      throw storeError(error);
    }
  }

  /** The counter's next `count` stamps, taken at once (migration 9: rows inserted with a stamp keep it). */
  stampsFor(count: number): number {
    const { last } = this.prepare('UPDATE transaction_stamps SET last = last + ? RETURNING last').get(count) as { last: number };
    return last - count + 1;
  }

  /** One prepared INSERT per row: in-process SQLite has no round trips to save. */
  insertMany(table: string, rows: readonly object[]): void {
    const first = rows[0];
    if (!first) return;
    const keys = Object.keys(first).map(identifier);
    const sql = `INSERT INTO ${identifier(table)} (${keys.join(', ')}) VALUES (${keys.map(() => '?').join(', ')})`;
    for (const row of rows) this.run(sql, ...keys.map((key) => (row as Row)[key]));
  }
}

/** Serializes async critical sections. */
class Lock {
  private tail: Promise<void> = Promise.resolve();

  run<T>(fn: () => Promise<T>): Promise<T> {
    const result = this.tail.then(fn);
    this.tail = result.then(
      () => undefined,
      () => undefined,
    );
    return result;
  }
}

function open(path: string, busyTimeoutMs = 5_000): DatabaseSync {
  // Loaded here rather than imported: on a Node without node:sqlite the package still loads and says what it needs.
  const { DatabaseSync } = requireNodeSqlite();
  const db = new DatabaseSync(path, { timeout: busyTimeoutMs });
  db.exec('PRAGMA foreign_keys = ON');
  if (path !== ':memory:') {
    db.exec('PRAGMA journal_mode = WAL');
    // FULL: a commit is on disk before the write is acknowledged, power loss included.
    db.exec('PRAGMA synchronous = FULL');
  }
  return db;
}

function migrate(db: DatabaseSync): void {
  db.exec(`CREATE TABLE IF NOT EXISTS migrations (
    version INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    applied_at INTEGER NOT NULL
  )`);
  const applied = new Set((db.prepare('SELECT version FROM migrations').all() as { version: number }[]).map((row) => row.version));
  for (const migration of migrations) {
    if (applied.has(migration.version)) continue;
    db.exec('BEGIN IMMEDIATE');
    try {
      db.exec(migration.sql);
      db.prepare('INSERT INTO migrations (version, name, applied_at) VALUES (?, ?, ?)').run(migration.version, migration.name, Date.now());
      db.exec('COMMIT');
    } catch (error) {
      db.exec('ROLLBACK');
      throw error;
    }
  }
}

export function openSqliteStore(options: SqliteOptions): Store {
  const inMemory = options.path === ':memory:';
  if (!inMemory) mkdirSync(dirname(options.path), { recursive: true });
  const writeDb = open(options.path, options.busyTimeoutMs);
  migrate(writeDb);
  const writer = new SqliteConnection(writeDb);
  const reader = inMemory ? writer : new SqliteConnection(open(options.path, options.busyTimeoutMs));
  const lock = new Lock();
  const writeRepos = sqlRepos(writer);
  // A single in-memory connection would let reads see a transaction in progress: gate them.
  const readRepos = inMemory ? gate(sqlRepos(reader), lock) : sqlRepos(reader);
  let closed = false;
  let commits = 0;
  const groupCommit = new GroupCommit({
    db: writer.db,
    tx: writeRepos,
    exclusive: (work) => lock.run(work),
    unavailable: () => (closed ? 'store is closed' : undefined),
    committed: () => {
      commits += 1;
    },
  });
  // Other connections' commits (the writer's, or another process's on the same file) show in the WAL-index
  // header, read by one pread; where it cannot be read, SQLite's own `PRAGMA data_version` tells (as an array:
  // a row object costs about 1 µs more than the pragma itself).
  let otherCommits = 0;
  const walIndex = inMemory ? undefined : watchWalIndex(options.path);
  const dataVersion = inMemory || walIndex ? undefined : reader.db.prepare('PRAGMA data_version');
  dataVersion?.setReturnArrays(true);
  const otherCommitsMark = (): number => {
    if (walIndex) return walIndex.changed() ? ++otherCommits : otherCommits;
    return dataVersion ? (dataVersion.get() as unknown as [number])[0] : 0;
  };

  const revisions = scopeRevisions(writer.db, reader.db);

  return {
    ...readRepos,
    // BEGIN and COMMIT fail here, outside the repositories, when the file is locked or cannot be written.
    transaction: (fn, options) =>
      groupCommit
        .run(async (tx) => {
          const before = revisions.writes();
          // SQLite's statements are done when asked for: the last writes are only awaited (their failure rolls back).
          const last: Promise<unknown>[] = [];
          const result = await fn(tx, (writes) => last.push(...writes));
          await Promise.all(last);
          if (revisions.writes() !== before) revisions.count(options?.changes);
          return result;
        }, options?.durable !== false)
        .catch((error: unknown) => {
          throw storeError(error);
        }),
    // One in-memory connection would let a reader see a transaction's revision before it commits.
    ...(inMemory ? {} : { scopedRevision: (enrollmentId: string) => revisions.of(enrollmentId) }),
    changeMark: () => {
      if (closed) return `closed.${++commits}`;
      return `${commits}.${otherCommitsMark()}`;
    },
    seesOtherWriters: true,
    ready: () => Promise.resolve(),
    close: () =>
      lock.run(async () => {
        if (closed) return;
        closed = true;
        walIndex?.close();
        if (reader !== writer) reader.db.close();
        writer.db.close();
      }),
  };
}

const ANY_SCOPE = '*';

/**
 * The `change_scopes` revisions: a transaction that wrote anything counts up its enrollment's row, or the row
 * of every scope ('*') when it is not scoped; one that changed only what no read shows (the outbox, connect tokens
 * and sessions) counts up none. In the
 * transaction itself, so the count commits (or rolls back) with the writes, from whichever process made them.
 */
function scopeRevisions(write: DatabaseSync, read: DatabaseSync) {
  const totalChanges = write.prepare('SELECT total_changes()');
  totalChanges.setReturnArrays(true);
  const countUp = write.prepare('INSERT INTO change_scopes (scope, revision) VALUES (?, 1) ON CONFLICT (scope) DO UPDATE SET revision = revision + 1');
  const current = read.prepare(
    `SELECT (SELECT revision FROM change_scopes WHERE scope = '${ANY_SCOPE}'), (SELECT revision FROM change_scopes WHERE scope = ?)`,
  );
  current.setReturnArrays(true);
  return {
    /** Rows this connection has changed so far (a transaction wrote if this moved). */
    writes: (): number => (totalChanges.get() as unknown as [number])[0],
    count(scope: ChangeScope | undefined): void {
      if (countsNoRevision(scope)) return;
      countUp.run(scope ? scope.enrollment : ANY_SCOPE);
    },
    of(enrollmentId: string): string {
      const [any, own] = current.get(enrollmentId) as unknown as [number | null, number | null];
      return `${any ?? 0}.${own ?? 0}`;
    },
  };
}

function gate(target: Repos, lock: Lock): Repos {
  const out: Record<string, Record<string, unknown>> = {};
  for (const [name, repo] of Object.entries(target)) {
    const wrapped: Record<string, unknown> = {};
    for (const [method, fn] of Object.entries(repo as Record<string, (...args: unknown[]) => Promise<unknown>>)) {
      wrapped[method] = (...args: unknown[]) => lock.run(() => fn(...args));
    }
    out[name] = wrapped;
  }
  return out as unknown as Repos;
}
