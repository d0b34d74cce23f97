// The repositories of every SQL store, written once against a small connection interface.
// Statements use `?` placeholders; each store's connection adapts them, converts rows, and
// says how its database locks rows (SQLite runs one writer at a time and needs no locks).
import type {
  AccountRow,
  ApplicationRow,
  ConnectSessionRow,
  ConnectTokenRow,
  DeliveryRow,
  EnrollmentRow,
  EventRow,
  IdempotencyRow,
  PayeeRow,
  PaymentRow,
  Repos,
  SigningKeyRow,
  TransactionQuery,
  TransactionRow,
  WebhookSecretRow,
} from '../store.ts';

type MaybePromise<T> = T | Promise<T>;

export interface SqlConnection {
  all<T>(sql: string, ...params: unknown[]): MaybePromise<T[]>;
  get<T>(sql: string, ...params: unknown[]): MaybePromise<T | undefined>;
  /** Throws UniqueViolation when a unique constraint fails. */
  run(sql: string, ...params: unknown[]): MaybePromise<void>;
  /** Many rows of one table, as few statements as the database allows. */
  insertMany(table: string, rows: readonly object[]): MaybePromise<void>;
  /** Appended to a SELECT that must hold its rows until the transaction ends ('' when writers never overlap). */
  readonly forUpdate: string;
  /** The same, passing over rows another transaction holds. */
  readonly forUpdateSkipLocked: string;
  /** `IN` a list given as one parameter (`list(values)`): the fragment that follows a column name. */
  readonly inList: string;
  /** The same for a list of integers. */
  readonly inIntegerList: string;
  /**
   * The `value` column of a statement's rows, in their order. Each store reads them its fastest way: SQLite as one
   * JSON array, one value to convert instead of one per row (a page's 100 stamps in about half the time); PostgreSQL
   * row by row, in the one round trip any statement takes.
   */
  values<T>(sql: string, ...params: unknown[]): MaybePromise<T[]>;
  /** `LIMIT` of a row count given as one parameter. */
  readonly limit: string;
  /**
   * The first of `count` transaction stamps reserved together, for rows inserted with theirs; absent where the
   * database gives each inserted row its stamp cheaply itself (PostgreSQL's sequence, in a trigger).
   */
  stampsFor?(count: number): MaybePromise<number>;
  list(values: readonly (string | number)[]): unknown;
}

/** Column and table names come from typed rows, never from requests; still, refuse anything odd. */
export function identifier(name: string): string {
  if (!/^[a-z_]+$/.test(name)) throw new Error(`bad identifier ${name}`);
  return name;
}

function insert(conn: SqlConnection, table: string, row: object): MaybePromise<void> {
  const keys = Object.keys(row).map(identifier);
  const sql = `INSERT INTO ${identifier(table)} (${keys.join(', ')}) VALUES (${keys.map(() => '?').join(', ')})`;
  return conn.run(sql, ...Object.values(row));
}

/** `also` is set as it is (a column counting the row's updates: `version = version + 1`). */
function update(conn: SqlConnection, table: string, where: Record<string, unknown>, patch: object, also?: string): MaybePromise<void> {
  const entries = Object.entries(patch).filter(([, value]) => value !== undefined);
  if (entries.length === 0) return;
  const whereKeys = Object.keys(where).map(identifier);
  const sets = entries.map(([key]) => `${identifier(key)} = ?`);
  const sql = `UPDATE ${identifier(table)} SET ${[...sets, ...(also ? [also] : [])].join(', ')} WHERE ${whereKeys.map((key) => `${key} = ?`).join(' AND ')}`;
  return conn.run(sql, ...entries.map(([, value]) => value), ...Object.values(where));
}

/** `read`: 'values' for one column named `value`, read by SqlConnection.values. */
function pageTransactions<Row>(
  conn: SqlConnection,
  columns: string,
  accountId: string,
  query: TransactionQuery,
  read: 'all' | 'values' = 'all',
): MaybePromise<Row[]> {
  const where = ['account_id = ?'];
  const params: unknown[] = [accountId];
  if (query.before) {
    // Row-value comparison keeps this a range scan of the (account_id, date DESC, seq DESC) index.
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
  return conn[read]<Row>(`SELECT ${columns} FROM transactions WHERE ${where.join(' AND ')} ORDER BY date DESC, seq DESC ${conn.limit}`, ...params);
}

function withoutStamp({ stamp: _, ...row }: TransactionRow): TransactionRow {
  return row;
}

/** Every column of an application: the compiler checks the list against the row's type. */
const APPLICATION_COLUMNS = Object.keys({
  id: true,
  key_hash: true,
  webhook_url: true,
  version: true,
  previous_version: true,
  version_changed_at: true,
  client_address: true,
  name: true,
  created_at: true,
} satisfies Record<keyof ApplicationRow, true>) as (keyof ApplicationRow)[];
/** The application's columns beside the enrollment's in one row: named apart by a prefix no enrollment column has. */
const APPLICATION_PREFIX = 'application__';
const ENROLLMENT_WITH_APPLICATION = `SELECT e.*, ${APPLICATION_COLUMNS.map((column) => `a.${column} AS ${APPLICATION_PREFIX}${column}`).join(', ')}
  FROM enrollments e LEFT JOIN applications a ON a.id = e.application_id WHERE e.token_hash = ?`;

/** The enrollment and, when the join found it, its application, out of one joined row. */
function splitEnrollmentWithApplication(row: Record<string, unknown>): { enrollment: EnrollmentRow; application: ApplicationRow | undefined } {
  const enrollment: Record<string, unknown> = {};
  const application: Record<string, unknown> = {};
  for (const [column, value] of Object.entries(row)) {
    if (column.startsWith(APPLICATION_PREFIX)) application[column.slice(APPLICATION_PREFIX.length)] = value;
    else enrollment[column] = value;
  }
  return {
    enrollment: enrollment as unknown as EnrollmentRow,
    application: application.id == null ? undefined : (application as unknown as ApplicationRow),
  };
}

async function countSince(conn: SqlConnection, table: 'applications' | 'enrollments', address: string, since: number): Promise<number> {
  const sql = `SELECT COUNT(*) AS n FROM ${identifier(table)} WHERE client_address = ? AND created_at >= ?`;
  return Number((await conn.get<{ n: number }>(sql, address, since))?.n ?? 0);
}

export function sqlRepos(conn: SqlConnection): Repos {
  return {
    applications: {
      insert: async (row) => insert(conn, 'applications', row),
      get: async (id) => conn.get<ApplicationRow>('SELECT * FROM applications WHERE id = ?', id),
      getForUpdate: async (id) => conn.get<ApplicationRow>(`SELECT * FROM applications WHERE id = ?${conn.forUpdate}`, id),
      getByKeyHash: async (hash) => conn.get<ApplicationRow>('SELECT * FROM applications WHERE key_hash = ?', hash),
      countByClientSince: async (address, since) => countSince(conn, 'applications', address, since),
      update: async (id, patch) => update(conn, 'applications', { id }, patch),
      getSigningKey: async (applicationId) => conn.get<SigningKeyRow>('SELECT * FROM application_signing_keys WHERE application_id = ?', applicationId),
      insertSigningKey: async (row) =>
        conn.run(
          `INSERT INTO application_signing_keys (application_id, key_id, public_key, private_key, created_at) VALUES (?, ?, ?, ?, ?)
           ON CONFLICT (application_id) DO NOTHING`,
          row.application_id,
          row.key_id,
          row.public_key,
          row.private_key,
          row.created_at,
        ),
    },
    enrollments: {
      insert: async (row) => insert(conn, 'enrollments', row),
      get: async (id) => conn.get<EnrollmentRow>('SELECT * FROM enrollments WHERE id = ?', id),
      getForUpdate: async (id) => conn.get<EnrollmentRow>(`SELECT * FROM enrollments WHERE id = ?${conn.forUpdate}`, id),
      getWithApplicationByTokenHash: async (hash) => {
        const row = await conn.get<Record<string, unknown>>(ENROLLMENT_WITH_APPLICATION, hash);
        return row && splitEnrollmentWithApplication(row);
      },
      countByApplication: async (applicationId) =>
        Number((await conn.get<{ n: number }>('SELECT COUNT(*) AS n FROM enrollments WHERE application_id = ?', applicationId))?.n ?? 0),
      countByClientSince: async (address, since) => countSince(conn, 'enrollments', address, since),
      update: async (id, patch) => update(conn, 'enrollments', { id }, patch),
    },
    accounts: {
      insert: async (row) => insert(conn, 'accounts', row),
      listByEnrollment: async (enrollmentId) =>
        conn.all<AccountRow>('SELECT * FROM accounts WHERE enrollment_id = ? AND removed_at IS NULL ORDER BY position', enrollmentId),
      get: async (enrollmentId, id) => conn.get<AccountRow>('SELECT * FROM accounts WHERE id = ? AND enrollment_id = ?', id, enrollmentId),
      update: async (id, patch) => update(conn, 'accounts', { id }, patch),
    },
    transactions: {
      // The database gives stamps: a row made from a read one carries its stamp, which is not written (SQLite would
      // check it against the others' before its trigger gives the new one). Where it reserves them for the rows of one
      // insert, each row is written with its own.
      insertMany: async (rows) => {
        const written = rows.some((row) => row.stamp !== undefined) ? rows.map(withoutStamp) : rows;
        if (!conn.stampsFor || written.length === 0) return conn.insertMany('transactions', written);
        const first = await conn.stampsFor(written.length);
        return conn.insertMany(
          'transactions',
          written.map((row, index) => ({ ...row, stamp: first + index })),
        );
      },
      get: async (accountId, id) => conn.get<TransactionRow>('SELECT * FROM transactions WHERE id = ? AND account_id = ?', id, accountId),
      page: async (accountId, query) => pageTransactions<TransactionRow>(conn, '*', accountId, query),
      pageStamps: async (accountId, query) => pageTransactions<number>(conn, 'stamp AS value', accountId, query, 'values'),
      getByStamps: async (accountId, stamps) =>
        stamps.length === 0
          ? []
          : conn.all<TransactionRow>(`SELECT * FROM transactions WHERE stamp ${conn.inIntegerList} AND account_id = ?`, conn.list(stamps), accountId),
      listPending: async (accountId) =>
        conn.all<TransactionRow>("SELECT * FROM transactions WHERE account_id = ? AND status = 'pending' ORDER BY post_date, seq", accountId),
      listEnrichmentDue: async (accountId, now) =>
        conn.all<TransactionRow>(
          'SELECT * FROM transactions WHERE account_id = ? AND enrich_at IS NOT NULL AND enrich_at <= ? ORDER BY enrich_at',
          accountId,
          now,
        ),
      nextEnrichmentAt: async (accountId) =>
        (
          await conn.get<{ at: number | null }>(
            'SELECT MIN(enrich_at) AS at FROM transactions WHERE account_id = ? AND enrich_at IS NOT NULL',
            accountId,
          )
        )?.at ?? null,
      maxSeq: async (accountId) =>
        (await conn.get<{ seq: number | null }>('SELECT MAX(seq) AS seq FROM transactions WHERE account_id = ?', accountId))?.seq ?? 0,
      // The store counts versions and gives stamps: a patch made from a whole row carries the old ones, not written.
      update: async (id, { version: _, stamp: __, ...patch }: Partial<TransactionRow>) =>
        update(conn, 'transactions', { id }, patch, 'version = version + 1'),
      delete: async (id) => conn.run('DELETE FROM transactions WHERE id = ?', id),
    },
    payees: {
      get: async (accountId, scheme, address) =>
        conn.get<PayeeRow>('SELECT * FROM payees WHERE account_id = ? AND scheme = ? AND address = ?', accountId, scheme, address),
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
      insert: async (row) => insert(conn, 'payments', row),
      get: async (accountId, id) => conn.get<PaymentRow>('SELECT * FROM payments WHERE id = ? AND account_id = ?', id, accountId),
      page: async (accountId, { before, limit }) =>
        before
          ? conn.all<PaymentRow>(
              `SELECT * FROM payments WHERE account_id = ? AND (created_at, id) < (?, ?) ORDER BY created_at DESC, id DESC ${conn.limit}`,
              accountId,
              before.created_at,
              before.id,
              limit,
            )
          : conn.all<PaymentRow>(`SELECT * FROM payments WHERE account_id = ? ORDER BY created_at DESC, id DESC ${conn.limit}`, accountId, limit),
    },
    idempotency: {
      get: async (scope, key) => conn.get<IdempotencyRow>('SELECT * FROM idempotency_keys WHERE scope = ? AND key = ?', scope, key),
      insert: async (row) => insert(conn, 'idempotency_keys', row),
      delete: async (scope, key) => conn.run('DELETE FROM idempotency_keys WHERE scope = ? AND key = ?', scope, key),
      update: async (scope, key, patch) => update(conn, 'idempotency_keys', { scope, key }, patch),
    },
    connectTokens: {
      insert: async (row) => insert(conn, 'connect_tokens', row),
      get: async (tokenHash) => conn.get<ConnectTokenRow>('SELECT * FROM connect_tokens WHERE token_hash = ?', tokenHash),
      update: async (tokenHash, patch) => update(conn, 'connect_tokens', { token_hash: tokenHash }, patch),
    },
    connectSessions: {
      insert: async (row) => insert(conn, 'connect_sessions', row),
      get: async (id) => conn.get<ConnectSessionRow>('SELECT * FROM connect_sessions WHERE id = ?', id),
      getForUpdate: async (id) => conn.get<ConnectSessionRow>(`SELECT * FROM connect_sessions WHERE id = ?${conn.forUpdate}`, id),
      update: async (id, patch) => update(conn, 'connect_sessions', { id }, patch),
      deleteExpired: async (now) => conn.run('DELETE FROM connect_sessions WHERE expires_at < ?', now),
    },
    webhooks: {
      listSecrets: async (applicationId) =>
        conn.all<WebhookSecretRow>('SELECT * FROM webhook_secrets WHERE application_id = ? ORDER BY created_at, id', applicationId),
      insertSecret: async (row) => insert(conn, 'webhook_secrets', row),
      updateSecret: async (id, patch) => update(conn, 'webhook_secrets', { id }, patch),
    },
    outbox: {
      insertEvent: async (row) => insert(conn, 'events', row),
      getEvent: async (id) => conn.get<EventRow>('SELECT * FROM events WHERE id = ?', id),
      insertDelivery: async (row) => insert(conn, 'deliveries', row),
      // The due deliveries no other transaction holds, pushed past `leaseUntil` in the same
      // statement: a second worker (another process) neither sees nor waits for them.
      claimDue: async (now, limit, leaseUntil) => {
        const claimed = await conn.all<DeliveryRow>(
          `UPDATE deliveries SET next_attempt_at = ? WHERE id IN (
             SELECT id FROM deliveries WHERE status = 'pending' AND next_attempt_at <= ?
             ORDER BY next_attempt_at, created_at ${conn.limit}${conn.forUpdateSkipLocked}
           ) RETURNING *`,
          leaseUntil,
          now,
          limit,
        );
        // RETURNING keeps no order: oldest first, as they became due.
        return claimed.sort((a, b) => a.created_at - b.created_at || (a.id < b.id ? -1 : 1));
      },
      nextDueAt: async () =>
        (await conn.get<{ at: number | null }>("SELECT MIN(next_attempt_at) AS at FROM deliveries WHERE status = 'pending'"))?.at ?? null,
      listDeliveries: async (applicationId, limit) =>
        conn.all<DeliveryRow>(
          `SELECT * FROM deliveries WHERE application_id = ? ORDER BY created_at DESC, id DESC ${conn.limit}`,
          applicationId,
          limit,
        ),
      getDelivery: async (id) => conn.get<DeliveryRow>('SELECT * FROM deliveries WHERE id = ?', id),
      updateDelivery: async (id, patch) => update(conn, 'deliveries', { id }, patch),
    },
  };
}
