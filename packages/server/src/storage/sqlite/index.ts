// Embedded storage on node:sqlite. One write connection, serialized by a lock so that a
// transaction's statements never interleave with another's; with a file, reads use a second
// connection that sees committed data only (WAL lets it read while a write is open).
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { DatabaseSync, type SQLInputValue, type StatementSync } from 'node:sqlite';
import {
  UniqueViolation,
  type AccountRow,
  type DeliveryRow,
  type EnrollmentRow,
  type EventRow,
  type IdempotencyRow,
  type PayeeRow,
  type PaymentRow,
  type Repos,
  type Store,
  type TransactionQuery,
  type TransactionRow,
  type WebhookSecretRow,
} from '../store.ts';
import { migrations } from './migrations.ts';

export interface SqliteOptions {
  /** File path, or ':memory:'. */
  path: string;
}

const BOOLEAN_COLUMNS = new Set(['disconnect_on_use', 'payments_supported', 'post_replaces']);

type Row = Record<string, unknown>;

function fromDb<T>(row: Row | undefined): T | undefined {
  if (!row) return undefined;
  // node:sqlite returns a fresh object per row: fix the few boolean columns in place. Copying
  // every column into a new object cost more than reading the rows (list reads, benchmarked).
  for (const key of BOOLEAN_COLUMNS) if (key in row) row[key] = row[key] === 1;
  return Object.setPrototypeOf(row, Object.prototype) as T;
}

function toDb(value: unknown): SQLInputValue {
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (value === undefined) return null;
  return value as SQLInputValue;
}

/** Column names come from typed rows, never from requests; still, refuse anything odd. */
function column(name: string): string {
  if (!/^[a-z_]+$/.test(name)) throw new Error(`bad column name ${name}`);
  return name;
}

class Connection {
  readonly db: DatabaseSync;
  private readonly statements = new Map<string, StatementSync>();

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

  all<T>(sql: string, ...params: unknown[]): T[] {
    return this.prepare(sql)
      .all(...params.map(toDb))
      .map((row) => fromDb<T>(row as Row) as T);
  }

  get<T>(sql: string, ...params: unknown[]): T | undefined {
    return fromDb<T>(this.prepare(sql).get(...params.map(toDb)) as Row | undefined);
  }

  run(sql: string, ...params: unknown[]): void {
    try {
      this.prepare(sql).run(...params.map(toDb));
    } catch (error) {
      const code = (error as { errcode?: number }).errcode;
      // SQLITE_CONSTRAINT_PRIMARYKEY (1555) and SQLITE_CONSTRAINT_UNIQUE (2067)
      if (code === 1555 || code === 2067) throw new UniqueViolation((error as Error).message);
      throw error;
    }
  }

  insert(table: string, row: object): void {
    const keys = Object.keys(row).map(column);
    const sql = `INSERT INTO ${table} (${keys.join(', ')}) VALUES (${keys.map(() => '?').join(', ')})`;
    this.run(sql, ...Object.values(row));
  }

  update(table: string, where: Record<string, unknown>, patch: object): void {
    const entries = Object.entries(patch).filter(([, value]) => value !== undefined);
    if (entries.length === 0) return;
    const whereKeys = Object.keys(where).map(column);
    const sql =
      `UPDATE ${table} SET ${entries.map(([key]) => `${column(key)} = ?`).join(', ')}` +
      ` WHERE ${whereKeys.map((key) => `${key} = ?`).join(' AND ')}`;
    this.run(sql, ...entries.map(([, value]) => value), ...Object.values(where));
  }
}

function repos(conn: Connection): Repos {
  return {
    enrollments: {
      insert: async (row) => conn.insert('enrollments', row),
      get: async (id) => conn.get<EnrollmentRow>('SELECT * FROM enrollments WHERE id = ?', id),
      // Write transactions are serialized (BEGIN IMMEDIATE under one lock): a plain read holds.
      getForUpdate: async (id) => conn.get<EnrollmentRow>('SELECT * FROM enrollments WHERE id = ?', id),
      getByTokenHash: async (hash) =>
        conn.get<EnrollmentRow>('SELECT * FROM enrollments WHERE token_hash = ?', hash),
      update: async (id, patch) => conn.update('enrollments', { id }, patch),
    },
    accounts: {
      insert: async (row) => conn.insert('accounts', row),
      listByEnrollment: async (enrollmentId) =>
        conn.all<AccountRow>(
          'SELECT * FROM accounts WHERE enrollment_id = ? AND removed_at IS NULL ORDER BY position',
          enrollmentId,
        ),
      get: async (enrollmentId, id) =>
        conn.get<AccountRow>('SELECT * FROM accounts WHERE id = ? AND enrollment_id = ?', id, enrollmentId),
      update: async (id, patch) => conn.update('accounts', { id }, patch),
    },
    transactions: {
      insertMany: async (rows) => {
        for (const row of rows) conn.insert('transactions', row);
      },
      get: async (accountId, id) =>
        conn.get<TransactionRow>('SELECT * FROM transactions WHERE id = ? AND account_id = ?', id, accountId),
      page: async (accountId, query) => pageTransactions(conn, accountId, query),
      listPending: async (accountId) =>
        conn.all<TransactionRow>(
          "SELECT * FROM transactions WHERE account_id = ? AND status = 'pending' ORDER BY post_date, seq",
          accountId,
        ),
      listEnrichmentDue: async (accountId, now) =>
        conn.all<TransactionRow>(
          'SELECT * FROM transactions WHERE account_id = ? AND enrich_at IS NOT NULL AND enrich_at <= ? ORDER BY enrich_at',
          accountId,
          now,
        ),
      nextEnrichmentAt: async (accountId) =>
        conn.get<{ at: number | null }>(
          'SELECT MIN(enrich_at) AS at FROM transactions WHERE account_id = ? AND enrich_at IS NOT NULL',
          accountId,
        )?.at ?? null,
      maxSeq: async (accountId) =>
        conn.get<{ seq: number | null }>('SELECT MAX(seq) AS seq FROM transactions WHERE account_id = ?', accountId)
          ?.seq ?? 0,
      update: async (id, patch) => conn.update('transactions', { id }, patch),
      delete: async (id) => conn.run('DELETE FROM transactions WHERE id = ?', id),
    },
    payees: {
      get: async (accountId, scheme, address) =>
        conn.get<PayeeRow>(
          'SELECT * FROM payees WHERE account_id = ? AND scheme = ? AND address = ?',
          accountId,
          scheme,
          address,
        ),
      upsert: async (row) =>
        conn.run(
          `INSERT INTO payees (account_id, scheme, address, name, type, created_at) VALUES (?, ?, ?, ?, ?, ?)
           ON CONFLICT (account_id, scheme, address) DO UPDATE SET name = excluded.name, type = excluded.type`,
          row.account_id,
          row.scheme,
          row.address,
          row.name,
          row.type,
          row.created_at,
        ),
    },
    payments: {
      insert: async (row) => conn.insert('payments', row),
      get: async (accountId, id) =>
        conn.get<PaymentRow>('SELECT * FROM payments WHERE id = ? AND account_id = ?', id, accountId),
      list: async (accountId) =>
        conn.all<PaymentRow>(
          'SELECT * FROM payments WHERE account_id = ? ORDER BY created_at DESC, id DESC',
          accountId,
        ),
    },
    idempotency: {
      get: async (scope, key) =>
        conn.get<IdempotencyRow>('SELECT * FROM idempotency_keys WHERE scope = ? AND key = ?', scope, key),
      insert: async (row) => conn.insert('idempotency_keys', row),
      delete: async (scope, key) => conn.run('DELETE FROM idempotency_keys WHERE scope = ? AND key = ?', scope, key),
    },
    webhooks: {
      getUrl: async () => conn.get<{ url: string | null }>('SELECT url FROM webhook_settings WHERE id = 1')?.url ?? null,
      setUrl: async (url) => conn.run('UPDATE webhook_settings SET url = ? WHERE id = 1', url),
      listSecrets: async () =>
        conn.all<WebhookSecretRow>('SELECT * FROM webhook_secrets ORDER BY created_at, id'),
      insertSecret: async (row) => conn.insert('webhook_secrets', row),
      updateSecret: async (id, patch) => conn.update('webhook_secrets', { id }, patch),
    },
    outbox: {
      insertEvent: async (row) => conn.insert('events', row),
      getEvent: async (id) => conn.get<EventRow>('SELECT * FROM events WHERE id = ?', id),
      insertDelivery: async (row) => conn.insert('deliveries', row),
      dueDeliveries: async (now, limit) =>
        conn.all<DeliveryRow>(
          `SELECT * FROM deliveries WHERE status = 'pending' AND next_attempt_at <= ?
           ORDER BY next_attempt_at, created_at LIMIT ?`,
          now,
          limit,
        ),
      nextDueAt: async () =>
        conn.get<{ at: number | null }>("SELECT MIN(next_attempt_at) AS at FROM deliveries WHERE status = 'pending'")
          ?.at ?? null,
      listDeliveries: async (limit) =>
        conn.all<DeliveryRow>('SELECT * FROM deliveries ORDER BY created_at DESC, id DESC LIMIT ?', limit),
      updateDelivery: async (id, patch) => conn.update('deliveries', { id }, patch),
    },
  };
}

function pageTransactions(conn: Connection, accountId: string, query: TransactionQuery): TransactionRow[] {
  const where = ['account_id = ?'];
  const params: unknown[] = [accountId];
  if (query.before) {
    // Row-value comparison keeps this a range scan of the (account_id, date, seq) index.
    where.push('(date, seq) < (?, ?)');
    params.push(query.before.date, query.before.seq);
  }
  if (query.startDate) {
    where.push('date >= ?');
    params.push(query.startDate);
  }
  if (query.endDate) {
    where.push('date <= ?');
    params.push(query.endDate);
  }
  params.push(query.limit);
  return conn.all<TransactionRow>(
    `SELECT * FROM transactions WHERE ${where.join(' AND ')} ORDER BY date DESC, seq DESC LIMIT ?`,
    ...params,
  );
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

function open(path: string): DatabaseSync {
  const db = new DatabaseSync(path, { timeout: 5000 });
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
  const applied = new Set(
    (db.prepare('SELECT version FROM migrations').all() as { version: number }[]).map((row) => row.version),
  );
  for (const migration of migrations) {
    if (applied.has(migration.version)) continue;
    db.exec('BEGIN IMMEDIATE');
    try {
      db.exec(migration.sql);
      db.prepare('INSERT INTO migrations (version, name, applied_at) VALUES (?, ?, ?)').run(
        migration.version,
        migration.name,
        Date.now(),
      );
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
  const writeDb = open(options.path);
  migrate(writeDb);
  const writer = new Connection(writeDb);
  const reader = inMemory ? writer : new Connection(open(options.path));
  const lock = new Lock();
  const writeRepos = repos(writer);
  // A single in-memory connection would let reads see a transaction in progress: gate them.
  const readRepos = inMemory ? gate(repos(reader), lock) : repos(reader);
  let closed = false;
  let commits = 0;
  // Changes when another connection commits: the writer, or another process on the same file. Read on every
  // replayed request, so as an array: a row object costs about 1 µs more than the pragma itself.
  const dataVersion = inMemory ? undefined : reader.db.prepare('PRAGMA data_version');
  dataVersion?.setReturnArrays(true);

  return {
    ...readRepos,
    transaction: (fn) =>
      lock.run(async () => {
        if (closed) throw new Error('store is closed');
        writer.db.exec('BEGIN IMMEDIATE');
        try {
          const result = await fn(writeRepos);
          writer.db.exec('COMMIT');
          commits += 1;
          return result;
        } catch (error) {
          writer.db.exec('ROLLBACK');
          throw error;
        }
      }),
    changeMark: () => {
      if (closed) return `closed.${++commits}`;
      return dataVersion ? `${commits}.${(dataVersion.get() as unknown as [number])[0]}` : String(commits);
    },
    close: () =>
      lock.run(async () => {
        if (closed) return;
        closed = true;
        if (reader !== writer) reader.db.close();
        writer.db.close();
      }),
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
