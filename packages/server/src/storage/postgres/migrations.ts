// Numbered schema migrations of the PostgreSQL store, applied in order once each and recorded
// in `migrations`. Append new entries; never edit an applied one. The schema means what the
// SQLite one means: money in integer cents and times in epoch milliseconds (BIGINT), dates as
// YYYY-MM-DD text, real booleans. Text compares byte by byte (COLLATE "C"), as in SQLite, so
// that ordering by dates and ids does not depend on the database's locale.
import type pg from 'pg';
import { applicationsSchema, type Migration, TRANSACTION_VERSIONS, widgetSchema } from '../sqlite/migrations.ts';

export const migrations: Migration[] = [
  {
    version: 1,
    name: 'initial schema',
    sql: `
      CREATE TABLE enrollments (
        id TEXT COLLATE "C" PRIMARY KEY,
        token_hash TEXT COLLATE "C" NOT NULL UNIQUE,
        mode TEXT NOT NULL CHECK (mode IN ('sandbox', 'live')),
        username TEXT NOT NULL,
        institution_id TEXT NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('healthy', 'disconnected')),
        status_reason TEXT,
        disconnect_on_use BOOLEAN NOT NULL DEFAULT FALSE,
        disconnect_on_use_reason TEXT,
        clock_offset_ms BIGINT NOT NULL DEFAULT 0,
        revoked_at BIGINT,
        created_at BIGINT NOT NULL,
        simulated_through TEXT COLLATE "C" NOT NULL,
        next_due_at BIGINT,
        refresh_count INTEGER NOT NULL DEFAULT 0
      );

      CREATE TABLE accounts (
        id TEXT COLLATE "C" PRIMARY KEY,
        enrollment_id TEXT COLLATE "C" NOT NULL REFERENCES enrollments (id),
        position INTEGER NOT NULL,
        name TEXT NOT NULL,
        type TEXT NOT NULL,
        subtype TEXT NOT NULL,
        currency TEXT NOT NULL,
        last_four TEXT NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('open', 'closed')),
        closed_reason TEXT,
        removed_at BIGINT,
        payments_supported BOOLEAN NOT NULL,
        account_number TEXT NOT NULL,
        routing_ach TEXT,
        routing_wire TEXT,
        verification TEXT NOT NULL CHECK (verification IN ('instant', 'pending', 'verified', 'expired')),
        verification_outcome TEXT,
        verification_expires_at BIGINT,
        ledger_cents BIGINT NOT NULL,
        available_cents BIGINT NOT NULL,
        credit_limit_cents BIGINT,
        profile TEXT NOT NULL
      );
      CREATE INDEX accounts_by_enrollment ON accounts (enrollment_id, position);

      CREATE TABLE transactions (
        id TEXT COLLATE "C" PRIMARY KEY,
        account_id TEXT COLLATE "C" NOT NULL REFERENCES accounts (id),
        seq INTEGER NOT NULL,
        date TEXT COLLATE "C" NOT NULL,
        amount_cents BIGINT NOT NULL,
        description TEXT NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('posted', 'pending')),
        type TEXT NOT NULL,
        running_balance_cents BIGINT,
        processing_status TEXT NOT NULL CHECK (processing_status IN ('pending', 'complete')),
        category TEXT,
        counterparty_name TEXT,
        counterparty_type TEXT,
        post_date TEXT COLLATE "C",
        post_amount_cents BIGINT,
        post_replaces BOOLEAN NOT NULL DEFAULT FALSE,
        enrich_at BIGINT
      );
      -- Keyset pagination, newest first: a deep page costs what a shallow one does.
      CREATE UNIQUE INDEX transactions_by_account_date ON transactions (account_id, date DESC, seq DESC);
      -- MAX(seq) per account (every new transaction) without scanning the account's history.
      CREATE INDEX transactions_by_account_seq ON transactions (account_id, seq);
      CREATE INDEX transactions_pending ON transactions (account_id, post_date) WHERE status = 'pending';
      CREATE INDEX transactions_enrichment ON transactions (account_id, enrich_at) WHERE enrich_at IS NOT NULL;

      CREATE TABLE payees (
        account_id TEXT COLLATE "C" NOT NULL REFERENCES accounts (id),
        scheme TEXT COLLATE "C" NOT NULL,
        address TEXT COLLATE "C" NOT NULL,
        name TEXT NOT NULL,
        type TEXT NOT NULL,
        created_at BIGINT NOT NULL,
        PRIMARY KEY (account_id, scheme, address)
      );

      CREATE TABLE payments (
        id TEXT COLLATE "C" PRIMARY KEY,
        account_id TEXT COLLATE "C" NOT NULL REFERENCES accounts (id),
        amount TEXT NOT NULL,
        amount_cents BIGINT NOT NULL,
        memo TEXT NOT NULL,
        reference TEXT NOT NULL,
        date TEXT COLLATE "C" NOT NULL,
        payee_scheme TEXT NOT NULL,
        payee_type TEXT NOT NULL,
        payee_name TEXT NOT NULL,
        payee_address TEXT NOT NULL,
        transaction_id TEXT COLLATE "C" NOT NULL,
        created_at BIGINT NOT NULL
      );
      CREATE INDEX payments_by_account ON payments (account_id, created_at DESC);

      -- One row per (scope, key): concurrent requests with one key make one payment.
      CREATE TABLE idempotency_keys (
        scope TEXT COLLATE "C" NOT NULL,
        key TEXT COLLATE "C" NOT NULL,
        request_hash TEXT NOT NULL,
        status INTEGER NOT NULL,
        response TEXT NOT NULL,
        created_at BIGINT NOT NULL,
        PRIMARY KEY (scope, key)
      );

      CREATE TABLE webhook_settings (
        id INTEGER PRIMARY KEY CHECK (id = 1),
        url TEXT
      );
      INSERT INTO webhook_settings (id, url) VALUES (1, NULL);

      CREATE TABLE webhook_secrets (
        id TEXT COLLATE "C" PRIMARY KEY,
        secret TEXT NOT NULL,
        created_at BIGINT NOT NULL,
        expires_at BIGINT
      );

      CREATE TABLE events (
        id TEXT COLLATE "C" PRIMARY KEY,
        type TEXT NOT NULL,
        enrollment_id TEXT COLLATE "C",
        payload TEXT NOT NULL,
        timestamp TEXT NOT NULL,
        created_at BIGINT NOT NULL
      );

      CREATE TABLE deliveries (
        id TEXT COLLATE "C" PRIMARY KEY,
        event_id TEXT COLLATE "C" NOT NULL REFERENCES events (id),
        event_type TEXT NOT NULL,
        url TEXT NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('pending', 'delivered', 'failed')),
        attempts INTEGER NOT NULL DEFAULT 0,
        last_status INTEGER,
        last_error TEXT,
        next_attempt_at BIGINT,
        delivered_at BIGINT,
        created_at BIGINT NOT NULL
      );
      CREATE INDEX deliveries_due ON deliveries (next_attempt_at) WHERE status = 'pending';
      CREATE INDEX deliveries_recent ON deliveries (created_at DESC);
    `,
  },
  {
    version: 2,
    name: 'applications',
    sql: applicationsSchema('BIGINT'),
  },
  {
    version: 3,
    name: 'sandbox failures on purpose',
    sql: `
      ALTER TABLE enrollments ADD COLUMN rate_limited_requests INTEGER NOT NULL DEFAULT 0;
      ALTER TABLE enrollments ADD COLUMN transactions_timeouts INTEGER NOT NULL DEFAULT 0;
    `,
  },
  {
    version: 4,
    name: 'change revisions by scope',
    // As in SQLite: one row per enrollment whose own rows a commit changed ('*': a commit not scoped to one),
    // counted up in the writing transaction, which also notifies every server process (changes.ts).
    sql: 'CREATE TABLE change_scopes (scope TEXT COLLATE "C" PRIMARY KEY, revision BIGINT NOT NULL);',
  },
  {
    version: 5,
    name: 'transaction versions',
    sql: TRANSACTION_VERSIONS,
  },
  {
    version: 6,
    name: 'transaction stamps',
    // As in SQLite (its migration 8 says why), from a sequence: never rolled back, so never given twice. A BEFORE
    // trigger gives each inserted or updated row the next one, whatever the statement wrote.
    sql: `
      CREATE SEQUENCE transaction_stamps;
      ALTER TABLE transactions ADD COLUMN stamp BIGINT;
      UPDATE transactions SET stamp = nextval('transaction_stamps');
      ALTER TABLE transactions ALTER COLUMN stamp SET NOT NULL;
      CREATE UNIQUE INDEX transactions_by_stamp ON transactions (stamp);
      CREATE FUNCTION transaction_next_stamp() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
          NEW.stamp := nextval('transaction_stamps');
          RETURN NEW;
        END
      $$;
      CREATE TRIGGER transactions_stamp BEFORE INSERT OR UPDATE ON transactions
        FOR EACH ROW EXECUTE FUNCTION transaction_next_stamp();
    `,
  },
  {
    version: 7,
    name: 'enrollment widget',
    sql: widgetSchema({ time: 'BIGINT', id: 'TEXT COLLATE "C"', boolean: 'BOOLEAN', no: 'FALSE' }),
  },
];

/** How many connection timeouts in a row a starting server sits out before it gives up. */
const STARTUP_CONNECT_ATTEMPTS = 6;

/**
 * The starting server's first connection: one that timed out (the database is slow to accept it, on a loaded machine
 * or while it starts) is tried again; a refused one fails at once.
 */
async function firstConnection(pool: pg.Pool): Promise<pg.PoolClient> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await pool.connect();
    } catch (error) {
      if (attempt >= STARTUP_CONNECT_ATTEMPTS || !/timeout/i.test((error as Error).message)) throw error;
    }
  }
}

/** Any constant shared by every server on the database: processes starting together queue on it. */
const MIGRATION_LOCK = 'aggregation-server migrations';

/**
 * Applies what is missing in one transaction under a transaction-level advisory lock: a second
 * process starting at the same moment waits, then finds everything applied. DDL is
 * transactional in PostgreSQL, so a failed migration leaves nothing behind.
 */
export async function migrate(pool: pg.Pool): Promise<void> {
  const client = await firstConnection(pool);
  try {
    await client.query('BEGIN');
    await client.query('SELECT pg_advisory_xact_lock(hashtext($1))', [MIGRATION_LOCK]);
    await client.query(`CREATE TABLE IF NOT EXISTS migrations (
      version INTEGER PRIMARY KEY,
      name TEXT NOT NULL,
      applied_at BIGINT NOT NULL
    )`);
    const applied = new Set((await client.query<{ version: number }>('SELECT version FROM migrations')).rows.map((row) => row.version));
    for (const migration of migrations) {
      if (applied.has(migration.version)) continue;
      await client.query(migration.sql);
      await client.query('INSERT INTO migrations (version, name, applied_at) VALUES ($1, $2, $3)', [migration.version, migration.name, Date.now()]);
    }
    await client.query('COMMIT');
    client.release();
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    client.release(true);
    throw error;
  }
}
