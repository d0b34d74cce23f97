// Numbered schema migrations, applied in order once each and recorded in `migrations`.
// Append new entries; never edit an applied one.

import { DEFAULT_APPLICATION_ID } from '../store.ts';

export interface Migration {
  version: number;
  name: string;
  sql: string;
}

/**
 * Each transaction counts its updates: a page of transactions reads the rows' ids and versions, and joins the
 * JSON rendered for each version (http/rendered-rows.ts). Shared by both stores.
 */
export const TRANSACTION_VERSIONS = 'ALTER TABLE transactions ADD COLUMN version INTEGER NOT NULL DEFAULT 0;';

/** A transaction's stamp, counted here and given by triggers (a trigger cannot name itself). */
const STAMP_COUNTER = 'transaction_stamps';
/** Gives the row `rowid` the counter's next stamp. */
const NEXT_STAMP = `
    UPDATE ${STAMP_COUNTER} SET last = last + 1;
    UPDATE transactions SET stamp = (SELECT last FROM ${STAMP_COUNTER}) WHERE rowid = NEW.rowid;`;

export const migrations: Migration[] = [
  {
    version: 1,
    name: 'initial schema',
    sql: `
      CREATE TABLE enrollments (
        id TEXT PRIMARY KEY,
        token_hash TEXT NOT NULL UNIQUE,
        mode TEXT NOT NULL CHECK (mode IN ('sandbox', 'live')),
        username TEXT NOT NULL,
        institution_id TEXT NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('healthy', 'disconnected')),
        status_reason TEXT,
        disconnect_on_use INTEGER NOT NULL DEFAULT 0,
        disconnect_on_use_reason TEXT,
        clock_offset_ms INTEGER NOT NULL DEFAULT 0,
        revoked_at INTEGER,
        created_at INTEGER NOT NULL,
        simulated_through TEXT NOT NULL,
        next_due_at INTEGER,
        refresh_count INTEGER NOT NULL DEFAULT 0
      );

      CREATE TABLE accounts (
        id TEXT PRIMARY KEY,
        enrollment_id TEXT NOT NULL REFERENCES enrollments (id),
        position INTEGER NOT NULL,
        name TEXT NOT NULL,
        type TEXT NOT NULL,
        subtype TEXT NOT NULL,
        currency TEXT NOT NULL,
        last_four TEXT NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('open', 'closed')),
        closed_reason TEXT,
        removed_at INTEGER,
        payments_supported INTEGER NOT NULL,
        account_number TEXT NOT NULL,
        routing_ach TEXT,
        routing_wire TEXT,
        verification TEXT NOT NULL CHECK (verification IN ('instant', 'pending', 'verified', 'expired')),
        verification_outcome TEXT,
        verification_expires_at INTEGER,
        ledger_cents INTEGER NOT NULL,
        available_cents INTEGER NOT NULL,
        credit_limit_cents INTEGER,
        profile TEXT NOT NULL
      );
      CREATE INDEX accounts_by_enrollment ON accounts (enrollment_id, position);

      CREATE TABLE transactions (
        id TEXT PRIMARY KEY,
        account_id TEXT NOT NULL REFERENCES accounts (id),
        seq INTEGER NOT NULL,
        date TEXT NOT NULL,
        amount_cents INTEGER NOT NULL,
        description TEXT NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('posted', 'pending')),
        type TEXT NOT NULL,
        running_balance_cents INTEGER,
        processing_status TEXT NOT NULL CHECK (processing_status IN ('pending', 'complete')),
        category TEXT,
        counterparty_name TEXT,
        counterparty_type TEXT,
        post_date TEXT,
        post_amount_cents INTEGER,
        post_replaces INTEGER NOT NULL DEFAULT 0,
        enrich_at INTEGER
      );
      -- Keyset pagination, newest first: a deep page costs what a shallow one does.
      CREATE UNIQUE INDEX transactions_by_account_date ON transactions (account_id, date DESC, seq DESC);
      CREATE INDEX transactions_pending ON transactions (account_id, post_date) WHERE status = 'pending';
      CREATE INDEX transactions_enrichment ON transactions (account_id, enrich_at) WHERE enrich_at IS NOT NULL;

      CREATE TABLE payees (
        account_id TEXT NOT NULL REFERENCES accounts (id),
        scheme TEXT NOT NULL,
        address TEXT NOT NULL,
        name TEXT NOT NULL,
        type TEXT NOT NULL,
        created_at INTEGER NOT NULL,
        PRIMARY KEY (account_id, scheme, address)
      );

      CREATE TABLE payments (
        id TEXT PRIMARY KEY,
        account_id TEXT NOT NULL REFERENCES accounts (id),
        amount TEXT NOT NULL,
        amount_cents INTEGER NOT NULL,
        memo TEXT NOT NULL,
        reference TEXT NOT NULL,
        date TEXT NOT NULL,
        payee_scheme TEXT NOT NULL,
        payee_type TEXT NOT NULL,
        payee_name TEXT NOT NULL,
        payee_address TEXT NOT NULL,
        transaction_id TEXT NOT NULL,
        created_at INTEGER NOT NULL
      );
      CREATE INDEX payments_by_account ON payments (account_id, created_at DESC);

      -- One row per (scope, key): concurrent requests with one key make one payment.
      CREATE TABLE idempotency_keys (
        scope TEXT NOT NULL,
        key TEXT NOT NULL,
        request_hash TEXT NOT NULL,
        status INTEGER NOT NULL,
        response TEXT NOT NULL,
        created_at INTEGER NOT NULL,
        PRIMARY KEY (scope, key)
      );

      CREATE TABLE webhook_settings (
        id INTEGER PRIMARY KEY CHECK (id = 1),
        url TEXT
      );
      INSERT INTO webhook_settings (id, url) VALUES (1, NULL);

      CREATE TABLE webhook_secrets (
        id TEXT PRIMARY KEY,
        secret TEXT NOT NULL,
        created_at INTEGER NOT NULL,
        expires_at INTEGER
      );

      CREATE TABLE events (
        id TEXT PRIMARY KEY,
        type TEXT NOT NULL,
        enrollment_id TEXT,
        payload TEXT NOT NULL,
        timestamp TEXT NOT NULL,
        created_at INTEGER NOT NULL
      );

      CREATE TABLE deliveries (
        id TEXT PRIMARY KEY,
        event_id TEXT NOT NULL REFERENCES events (id),
        event_type TEXT NOT NULL,
        url TEXT NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('pending', 'delivered', 'failed')),
        attempts INTEGER NOT NULL DEFAULT 0,
        last_status INTEGER,
        last_error TEXT,
        next_attempt_at INTEGER,
        delivered_at INTEGER,
        created_at INTEGER NOT NULL
      );
      CREATE INDEX deliveries_due ON deliveries (next_attempt_at) WHERE status = 'pending';
      CREATE INDEX deliveries_recent ON deliveries (created_at DESC);
    `,
  },
  {
    version: 2,
    name: 'transactions by account and sequence',
    // MAX(seq) per account (every new transaction, e.g. each payment) otherwise scans the
    // account's whole history: (account_id, date, seq) does not serve it.
    sql: 'CREATE INDEX transactions_by_account_seq ON transactions (account_id, seq);',
  },
  {
    version: 3,
    name: 'applications',
    sql: applicationsSchema('INTEGER'),
  },
  {
    version: 4,
    name: 'sandbox failures on purpose',
    sql: `
      ALTER TABLE enrollments ADD COLUMN rate_limited_requests INTEGER NOT NULL DEFAULT 0;
      ALTER TABLE enrollments ADD COLUMN transactions_timeouts INTEGER NOT NULL DEFAULT 0;
    `,
  },
  {
    version: 5,
    name: 'change revisions by scope',
    // One row per enrollment whose own rows a commit changed ('*': a commit not scoped to one), counted up by
    // every write transaction (see index.ts): a read cache keeps an enrollment's reads across others' writes.
    sql: 'CREATE TABLE change_scopes (scope TEXT PRIMARY KEY, revision INTEGER NOT NULL) WITHOUT ROWID;',
  },
  {
    version: 6,
    name: 'transaction versions',
    sql: TRANSACTION_VERSIONS,
  },
  {
    version: 7,
    name: 'transaction page keys from the index alone',
    // A page rendered from kept rows reads only its rows' ids and versions (http/rendered-rows.ts): with both in the
    // index, that read walks the index and never looks up a row in the table (half its cost for a page of 100).
    sql: 'CREATE INDEX transactions_page_keys ON transactions (account_id, date DESC, seq DESC, id, version);',
  },
  {
    version: 8,
    name: 'transaction stamps',
    // Each version of each transaction has a stamp, a number no other row or version ever had in this database: the
    // counter only goes up, and a deleted row's stamp is never given again (a rowid can be). A page reads only its
    // rows' stamps (one integer each) and joins the JSON kept per stamp (http/rendered-rows.ts). The database gives
    // them, so every path that writes a row takes one: every insert the next stamp, whatever the row brought (a
    // replacement made from a read row brings the old one); every update one, unless it set the stamp itself (as the
    // insert trigger's update does). Rows already there are stamped by their rowids (unique now; the counter starts
    // above them).
    sql: `
      ALTER TABLE transactions ADD COLUMN stamp INTEGER;
      UPDATE transactions SET stamp = rowid;
      CREATE TABLE ${STAMP_COUNTER} (last INTEGER NOT NULL);
      INSERT INTO ${STAMP_COUNTER} (last) SELECT COALESCE(MAX(stamp), 0) FROM transactions;
      CREATE TRIGGER transactions_stamp_insert AFTER INSERT ON transactions BEGIN ${NEXT_STAMP}
      END;
      CREATE TRIGGER transactions_stamp_update AFTER UPDATE ON transactions WHEN NEW.stamp IS OLD.stamp BEGIN ${NEXT_STAMP}
      END;
      CREATE UNIQUE INDEX transactions_by_stamp ON transactions (stamp);
      DROP INDEX transactions_page_keys;
      CREATE INDEX transactions_page_stamps ON transactions (account_id, date DESC, seq DESC, stamp);
    `,
  },
  {
    version: 9,
    name: 'enrollment widget',
    sql: widgetSchema({ time: 'INTEGER', id: 'TEXT', boolean: 'INTEGER', no: '0' }),
  },
  {
    version: 10,
    name: 'transaction stamps given with inserted rows',
    // Rows inserted together take their stamps with them, from a range of the counter reserved at once
    // (SqliteConnection.stampsFor): the insert trigger's two updates, of the counter and of the row just written (and
    // of its two indexes holding the stamp), cost about a third of an insert. A row inserted without one still gets
    // the next stamp from the trigger.
    sql: `
      DROP TRIGGER transactions_stamp_insert;
      CREATE TRIGGER transactions_stamp_insert AFTER INSERT ON transactions WHEN NEW.stamp IS NULL BEGIN ${NEXT_STAMP}
      END;
    `,
  },
];

/**
 * What the enrollment widget needs: users, MFA challenges (connect tokens) kept under their Idempotency-Key, the
 * sessions of the widget, and each application's name and signing key. Shared by both stores: only the types of
 * times, ids and booleans differ. Enrollments made before get a user each.
 */
export function widgetSchema(types: { time: string; id: string; boolean: string; no: string }): string {
  const { time, id, boolean, no } = types;
  return `
    ALTER TABLE enrollments ADD COLUMN user_id ${id} NOT NULL DEFAULT '';
    UPDATE enrollments SET user_id = 'usr_' || substr(id, 5);
    ALTER TABLE enrollments ADD COLUMN mfa_payments ${boolean} NOT NULL DEFAULT ${no};
    ALTER TABLE applications ADD COLUMN name TEXT;
    ALTER TABLE idempotency_keys ADD COLUMN connect_token_hash ${id};

    CREATE TABLE application_signing_keys (
      application_id ${id} PRIMARY KEY REFERENCES applications (id),
      key_id ${id} NOT NULL UNIQUE,
      public_key TEXT NOT NULL,
      private_key TEXT NOT NULL,
      created_at ${time} NOT NULL
    );

    CREATE TABLE connect_tokens (
      token_hash ${id} PRIMARY KEY,
      application_id ${id} NOT NULL,
      enrollment_id ${id} NOT NULL REFERENCES enrollments (id),
      account_id ${id} NOT NULL,
      operation TEXT NOT NULL CHECK (operation IN ('create_payee', 'create_payment')),
      request_hash TEXT NOT NULL,
      request TEXT NOT NULL,
      idempotency_key TEXT,
      status TEXT NOT NULL CHECK (status IN ('pending', 'approved', 'completed')),
      issued_at ${time} NOT NULL,
      expires_at ${time} NOT NULL,
      approved_at ${time},
      completed_at ${time}
    );

    CREATE TABLE connect_sessions (
      id ${id} PRIMARY KEY,
      application_id ${id} NOT NULL,
      mode TEXT NOT NULL CHECK (mode IN ('enroll', 'reconnect', 'approve')),
      step TEXT NOT NULL CHECK (step IN ('credentials', 'mfa', 'select_accounts', 'approve', 'done')),
      products TEXT NOT NULL,
      select_account TEXT NOT NULL CHECK (select_account IN ('disabled', 'single', 'multiple')),
      nonce TEXT,
      enrollment_id ${id},
      connect_token TEXT,
      institution_id TEXT,
      username TEXT,
      pending TEXT,
      created_at ${time} NOT NULL,
      expires_at ${time} NOT NULL
    );
    CREATE INDEX connect_sessions_by_expiry ON connect_sessions (expires_at);
  `;
}

/**
 * Applications (the developers' apps) own enrollments, webhook settings, signing secrets, events
 * and deliveries. What existed before belongs to the default application, which keeps the one
 * webhook URL there was. Shared by both stores: only the integer type of times differs.
 */
export function applicationsSchema(time: 'INTEGER' | 'BIGINT'): string {
  const owned = (table: string) => `ALTER TABLE ${table} ADD COLUMN application_id TEXT NOT NULL DEFAULT '${DEFAULT_APPLICATION_ID}';`;
  return `
    CREATE TABLE applications (
      id TEXT PRIMARY KEY,
      key_hash TEXT UNIQUE,
      webhook_url TEXT,
      version TEXT,
      previous_version TEXT,
      version_changed_at ${time},
      client_address TEXT,
      created_at ${time} NOT NULL
    );
    CREATE INDEX applications_by_client ON applications (client_address, created_at);
    INSERT INTO applications (id, webhook_url, created_at) SELECT '${DEFAULT_APPLICATION_ID}', url, 0 FROM webhook_settings;
    DROP TABLE webhook_settings;

    ${owned('enrollments')}
    ALTER TABLE enrollments ADD COLUMN client_address TEXT;
    CREATE INDEX enrollments_by_application ON enrollments (application_id);
    CREATE INDEX enrollments_by_client ON enrollments (client_address, created_at);
    ${owned('webhook_secrets')}
    CREATE INDEX webhook_secrets_by_application ON webhook_secrets (application_id);
    ${owned('events')}
    ${owned('deliveries')}
    CREATE INDEX deliveries_by_application ON deliveries (application_id, created_at DESC);
  `;
}
