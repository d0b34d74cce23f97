// The storage interface the domain codes against. Every implementation (the embedded
// SQLite one, a PostgreSQL one) provides the same async repositories; no driver types
// leak out. Times are epoch milliseconds, money is integer cents, dates are YYYY-MM-DD.

export type Mode = 'sandbox' | 'live';

/** The application of enrollments made without an application key (local use). */
export const DEFAULT_APPLICATION_ID = 'app_default';

/** A developer's application: it owns enrollments, webhook settings, secrets, events and deliveries. */
export interface ApplicationRow {
  id: string;
  /** Hash of the application key; null for the default application, which has none. */
  key_hash: string | null;
  webhook_url: string | null;
  /** Default version of its requests and events; null: the server's default version. */
  version: string | null;
  /** The version before the last upgrade, while a rollback is possible. */
  previous_version: string | null;
  /** Sandbox-clock time of the last upgrade (the rollback window starts there). */
  version_changed_at: number | null;
  /** Who created it (the limits per client address count these). */
  client_address: string | null;
  /** What the enrollment widget calls it; null: the default name. */
  name: string | null;
  created_at: number;
}

/** An application's Ed25519 key pair: it signs what the enrollment widget hands the application. */
export interface SigningKeyRow {
  application_id: string;
  key_id: string;
  /** The raw 32-byte public key, base64url. */
  public_key: string;
  /** The private key, PKCS #8 DER, base64url. */
  private_key: string;
  created_at: number;
}
export type EnrollmentStatus = 'healthy' | 'disconnected';

export interface EnrollmentRow {
  id: string;
  application_id: string;
  /** Who created it (the limits per client address count these); null when made in-process. */
  client_address: string | null;
  token_hash: string;
  mode: Mode;
  username: string;
  institution_id: string;
  status: EnrollmentStatus;
  /** Dot-separated reason of a disconnection, null when none was given. */
  status_reason: string | null;
  /** Set for sandbox users that disconnect at their first data request. */
  disconnect_on_use: boolean;
  disconnect_on_use_reason: string | null;
  clock_offset_ms: number;
  revoked_at: number | null;
  created_at: number;
  /** Last day (enrollment clock) the sandbox bank has simulated. */
  simulated_through: string;
  /** Enrollment-clock time when the lifecycle next has work to do; null when idle. */
  next_due_at: number | null;
  refresh_count: number;
  /** Sandbox: requests still to answer 429 rate_limited (`rate_limited.<n>`). */
  rate_limited_requests: number;
  /** Sandbox: transactions requests still to answer 504 gateway_timeout (`timeout.first_transactions`). */
  transactions_timeouts: number;
  /** The user the enrollment belongs to (`usr_...`). */
  user_id: string;
  /** Every payee and payment needs the user's approval (an MFA challenge) first (`mfa.payments`). */
  mfa_payments: boolean;
}

export type AccountType = 'depository' | 'credit';
export type Verification = 'instant' | 'pending' | 'verified' | 'expired';

export interface AccountRow {
  id: string;
  enrollment_id: string;
  position: number;
  name: string;
  type: AccountType;
  subtype: string;
  currency: string;
  last_four: string;
  status: 'open' | 'closed';
  closed_reason: string | null;
  removed_at: number | null;
  payments_supported: boolean;
  account_number: string;
  routing_ach: string | null;
  routing_wire: string | null;
  verification: Verification;
  /** Sandbox microdeposit outcome: verify when the transactions are fetched, or never. */
  verification_outcome: 'success' | 'failure' | null;
  verification_expires_at: number | null;
  ledger_cents: number;
  available_cents: number;
  credit_limit_cents: number | null;
  /** Seed of the account's simulated activity. */
  profile: string;
}

export interface TransactionRow {
  id: string;
  account_id: string;
  /** Per-account tie-break: later events get larger numbers. */
  seq: number;
  date: string;
  amount_cents: number;
  description: string;
  status: 'posted' | 'pending';
  type: string;
  running_balance_cents: number | null;
  processing_status: 'pending' | 'complete';
  category: string | null;
  counterparty_name: string | null;
  counterparty_type: 'organization' | 'person' | null;
  /** Pending only: the day it posts, and what posting does. */
  post_date: string | null;
  post_amount_cents: number | null;
  post_replaces: boolean;
  /** Enrollment-clock time when enrichment completes; null once complete. */
  enrich_at: number | null;
  /** Counts the row's updates (set by the store: absent on rows to insert). */
  version?: number;
  /**
   * This version of this row, as a number no other row or version of the database ever had or will have (set by
   * the store on every insert and update, whatever the row carries): what its rendered JSON is kept under.
   */
  stamp?: number;
}

export interface TransactionCursor {
  date: string;
  seq: number;
}

export interface TransactionQuery {
  /** Only transactions strictly older than this position (newest-first order). */
  before?: TransactionCursor;
  startDate?: string;
  endDate?: string;
  limit: number;
}

/** A position in an account's newest-first payment list. */
export interface PaymentCursor {
  created_at: number;
  id: string;
}

export interface PaymentQuery {
  /** Only payments strictly older than this position. */
  before?: PaymentCursor;
  limit: number;
}

export interface PayeeRow {
  account_id: string;
  scheme: string;
  address: string;
  name: string;
  type: 'person' | 'business';
  created_at: number;
}

export interface PaymentRow {
  id: string;
  account_id: string;
  amount: string;
  amount_cents: number;
  memo: string;
  reference: string;
  date: string;
  payee_scheme: string;
  payee_type: 'person' | 'business';
  payee_name: string;
  payee_address: string;
  transaction_id: string;
  created_at: number;
}

export interface IdempotencyRow {
  scope: string;
  key: string;
  request_hash: string;
  status: number;
  response: string;
  /** Enrollment-clock time, which decides retention. */
  created_at: number;
  /**
   * Set while the key keeps an MFA challenge (the hash of its connect token) rather than a final answer: the key's
   * next request asks the challenge's state. Absent or null otherwise.
   */
  connect_token_hash?: string | null;
}

export type ConnectOperation = 'create_payee' | 'create_payment';

/** An MFA challenge: a request that waits for its user's approval. */
export interface ConnectTokenRow {
  token_hash: string;
  application_id: string;
  enrollment_id: string;
  account_id: string;
  operation: ConnectOperation;
  /** The request's hash, as its Idempotency-Key compares it. */
  request_hash: string;
  /** The request's body as validated (JSON), shown to the user who approves it. */
  request: string;
  idempotency_key: string | null;
  /** `expired` is not stored: a token not completed by `expires_at` is expired. */
  status: 'pending' | 'approved' | 'completed';
  /** Enrollment-clock times. */
  issued_at: number;
  expires_at: number;
  approved_at: number | null;
  completed_at: number | null;
}

export type ConnectMode = 'enroll' | 'reconnect' | 'approve';
export type ConnectStep = 'credentials' | 'mfa' | 'select_accounts' | 'approve' | 'done';
export type SelectAccount = 'disabled' | 'single' | 'multiple';

/** One run of the enrollment widget. */
export interface ConnectSessionRow {
  id: string;
  application_id: string;
  mode: ConnectMode;
  step: ConnectStep;
  /** JSON array of the products asked for. */
  products: string;
  select_account: SelectAccount;
  nonce: string | null;
  /** Reconnect: the enrollment to reconnect. */
  enrollment_id: string | null;
  /** Approve: the connect token to approve (the session's answers show it; the session lives 30 minutes). */
  connect_token: string | null;
  /** Once the user signed in: where, and as whom. */
  institution_id: string | null;
  username: string | null;
  /** Account selection: JSON of the enrollment to make (its id, its accounts' ids), shown before it exists. */
  pending: string | null;
  /** Real time. */
  created_at: number;
  expires_at: number;
}

export interface WebhookSecretRow {
  id: string;
  application_id: string;
  secret: string;
  created_at: number;
  expires_at: number | null;
}

export interface EventRow {
  id: string;
  application_id: string;
  type: string;
  enrollment_id: string | null;
  /** JSON of the payload in the current version's shapes. */
  payload: string;
  timestamp: string;
  created_at: number;
}

export type DeliveryStatus = 'pending' | 'delivered' | 'failed';

export interface DeliveryRow {
  id: string;
  application_id: string;
  event_id: string;
  event_type: string;
  url: string;
  status: DeliveryStatus;
  attempts: number;
  last_status: number | null;
  last_error: string | null;
  next_attempt_at: number | null;
  delivered_at: number | null;
  created_at: number;
}

export interface EnrollmentRepo {
  insert(row: EnrollmentRow): Promise<void>;
  get(id: string): Promise<EnrollmentRow | undefined>;
  /**
   * Reads the enrollment and holds it until the transaction ends. Every transaction that
   * reads and then changes an enrollment's data (balances, simulation, state) takes this
   * first, so concurrent writers of one enrollment queue up (SELECT ... FOR UPDATE in a
   * server database; the embedded store already runs one writer at a time).
   */
  getForUpdate(id: string): Promise<EnrollmentRow | undefined>;
  /** The enrollment of that token hash and its application, read together (one statement); `application` undefined when missing. */
  getWithApplicationByTokenHash(tokenHash: string): Promise<{ enrollment: EnrollmentRow; application: ApplicationRow | undefined } | undefined>;
  countByApplication(applicationId: string): Promise<number>;
  /** Enrollments made from that client address at or after `since` (real time). */
  countByClientSince(clientAddress: string, since: number): Promise<number>;
  update(id: string, patch: Partial<Omit<EnrollmentRow, 'id'>>): Promise<void>;
}

export interface AccountRepo {
  insert(row: AccountRow): Promise<void>;
  /** Accounts still authorized (not removed), in their display order. */
  listByEnrollment(enrollmentId: string): Promise<AccountRow[]>;
  /** An account of that enrollment, removed ones included. */
  get(enrollmentId: string, id: string): Promise<AccountRow | undefined>;
  update(id: string, patch: Partial<Omit<AccountRow, 'id' | 'enrollment_id'>>): Promise<void>;
}

export interface TransactionRepo {
  insertMany(rows: TransactionRow[]): Promise<void>;
  get(accountId: string, id: string): Promise<TransactionRow | undefined>;
  /** Newest first: date descending, then seq descending. Keyset-paginated. */
  page(accountId: string, query: TransactionQuery): Promise<TransactionRow[]>;
  /** The stamps of the rows `page` would return, in its order. */
  pageStamps(accountId: string, query: TransactionQuery): Promise<number[]>;
  /** The account's transactions of these stamps (rows as they still are at them), in no particular order. */
  getByStamps(accountId: string, stamps: readonly number[]): Promise<TransactionRow[]>;
  listPending(accountId: string): Promise<TransactionRow[]>;
  listEnrichmentDue(accountId: string, now: number): Promise<TransactionRow[]>;
  nextEnrichmentAt(accountId: string): Promise<number | null>;
  maxSeq(accountId: string): Promise<number>;
  /** Also counts up the row's version and gives it a new stamp. */
  update(id: string, patch: Partial<Omit<TransactionRow, 'id' | 'account_id' | 'version' | 'stamp'>>): Promise<void>;
  delete(id: string): Promise<void>;
}

export interface PayeeRepo {
  get(accountId: string, scheme: string, address: string): Promise<PayeeRow | undefined>;
  upsert(row: PayeeRow): Promise<void>;
}

export interface PaymentRepo {
  insert(row: PaymentRow): Promise<void>;
  get(accountId: string, id: string): Promise<PaymentRow | undefined>;
  /** Newest first (created_at, then id, descending). Keyset-paginated. */
  page(accountId: string, query: PaymentQuery): Promise<PaymentRow[]>;
}

export interface IdempotencyRepo {
  get(scope: string, key: string): Promise<IdempotencyRow | undefined>;
  /** Throws UniqueViolation when the key exists. */
  insert(row: IdempotencyRow): Promise<void>;
  delete(scope: string, key: string): Promise<void>;
  update(scope: string, key: string, patch: Partial<Omit<IdempotencyRow, 'scope' | 'key'>>): Promise<void>;
}

export interface ConnectTokenRepo {
  insert(row: ConnectTokenRow): Promise<void>;
  get(tokenHash: string): Promise<ConnectTokenRow | undefined>;
  update(tokenHash: string, patch: Partial<Pick<ConnectTokenRow, 'status' | 'approved_at' | 'completed_at'>>): Promise<void>;
}

export interface ConnectSessionRepo {
  insert(row: ConnectSessionRow): Promise<void>;
  get(id: string): Promise<ConnectSessionRow | undefined>;
  /** Holds the session until the transaction ends: its steps queue up. */
  getForUpdate(id: string): Promise<ConnectSessionRow | undefined>;
  update(id: string, patch: Partial<Omit<ConnectSessionRow, 'id' | 'application_id' | 'mode'>>): Promise<void>;
  /** Removes the sessions that expired before `now` (real time). */
  deleteExpired(now: number): Promise<void>;
}

export interface ApplicationRepo {
  insert(row: ApplicationRow): Promise<void>;
  get(id: string): Promise<ApplicationRow | undefined>;
  /**
   * Reads the application and holds it until the transaction ends, so that writers of its
   * settings (secrets, version) queue up, in every process.
   */
  getForUpdate(id: string): Promise<ApplicationRow | undefined>;
  getByKeyHash(keyHash: string): Promise<ApplicationRow | undefined>;
  /** Applications made from that client address at or after `since` (real time). */
  countByClientSince(clientAddress: string, since: number): Promise<number>;
  update(id: string, patch: Partial<Omit<ApplicationRow, 'id'>>): Promise<void>;
  getSigningKey(applicationId: string): Promise<SigningKeyRow | undefined>;
  /** Keeps the first key an application gets: a second insert for it changes nothing. */
  insertSigningKey(row: SigningKeyRow): Promise<void>;
}

export interface WebhookRepo {
  listSecrets(applicationId: string): Promise<WebhookSecretRow[]>;
  insertSecret(row: WebhookSecretRow): Promise<void>;
  updateSecret(id: string, patch: { expires_at: number | null }): Promise<void>;
}

export interface OutboxRepo {
  insertEvent(row: EventRow): Promise<void>;
  getEvent(id: string): Promise<EventRow | undefined>;
  insertDelivery(row: DeliveryRow): Promise<void>;
  /**
   * Claims up to `limit` pending deliveries due at `now`, oldest first, by moving their next
   * attempt to `leaseUntil`: until then no other worker, in this process or another, gets them.
   * A worker that records the attempt's outcome in time ends the lease; one that dies lets it
   * run out, and the delivery is attempted again (at least once).
   */
  claimDue(now: number, limit: number, leaseUntil: number): Promise<DeliveryRow[]>;
  nextDueAt(): Promise<number | null>;
  /** The application's most recent deliveries, newest first. */
  listDeliveries(applicationId: string, limit: number): Promise<DeliveryRow[]>;
  getDelivery(id: string): Promise<DeliveryRow | undefined>;
  updateDelivery(id: string, patch: Partial<Omit<DeliveryRow, 'id' | 'event_id'>>): Promise<void>;
}

export interface Repos {
  applications: ApplicationRepo;
  enrollments: EnrollmentRepo;
  accounts: AccountRepo;
  transactions: TransactionRepo;
  payees: PayeeRepo;
  payments: PaymentRepo;
  idempotency: IdempotencyRepo;
  connectTokens: ConnectTokenRepo;
  connectSessions: ConnectSessionRepo;
  webhooks: WebhookRepo;
  outbox: OutboxRepo;
}

export interface TransactionOptions {
  /**
   * false: the commit need not survive a crash, so it is not flushed to disk before it returns
   * (a later durable commit flushes it). Only for writes whose loss is harmless, such as a lease
   * that lapses anyway. Default true.
   */
  durable?: boolean;
  /**
   * What the transaction may change, as reads see it. `{ enrollment }`: only that enrollment's own rows (the
   * enrollment, its accounts, transactions, payees, payments and idempotency keys) and the outbox; `'outbox'`:
   * only events and deliveries. Reads of other enrollments' data stay valid across it (see `scopedRevision`).
   * `{ enrollment, account }`: besides idempotency keys and the outbox, only that account's activity (its
   * balances, transactions, payees and payments); a store may then keep valid the reads that show no activity or
   * only another account's (see `ActivityShown`), or count it as the whole enrollment's. `'unshown'`: only rows no
   * kept read shows (connect tokens and sessions, signing keys) and the outbox. Default: anything.
   */
  changes?: ChangeScope;
}

export type ChangeScope = { enrollment: string; account?: string } | 'outbox' | 'unshown';

/** Whether a transaction of this scope leaves every kept read valid: it counts up no revision. */
export const countsNoRevision = (scope: ChangeScope | undefined): scope is 'outbox' | 'unshown' => scope === 'outbox' || scope === 'unshown';

/**
 * Which accounts' activity (balances, transactions, payees, payments) a read of an enrollment shows: one account's,
 * none (the enrollment, its accounts as resources, their details), or, when not said, any of them.
 */
export type ActivityShown = { account: string } | 'none';

/**
 * Hands the store a transaction's last writes, asked for and not awaited, before its function returns: the store
 * waits for them with its COMMIT (a server database gets them and the COMMIT in one round trip). When one fails, the
 * transaction commits nothing and fails with that write's error. Each of their statements must have been asked for
 * already (no write that waits for another's answer): a statement asked for after the COMMIT fails.
 */
export type LastWrites = (writes: readonly Promise<unknown>[]) => void;

export interface Store extends Repos {
  /**
   * Runs `fn` in one atomic, durable transaction: every write goes through here. Reads on
   * the store itself see committed data only. `fn` must not call `transaction` again and
   * should not wait on anything but the repositories it is given.
   */
  transaction<T>(fn: (tx: Repos, lastWrites: LastWrites) => Promise<T>, options?: TransactionOptions): Promise<T>;
  /**
   * A value that changes whenever a transaction commits, in this process or in another one
   * sharing the database; read caches compare it. Cheap and synchronous: it is read on every
   * replayed request. A store that cannot tell returns a new value on every call.
   */
  changeMark(): string;
  /**
   * Whether `changeMark` also changes on commits of other processes sharing the database (once `syncChanges`
   * says so, where the store has it). When false, the app keeps no read cache, since a kept response could be
   * stale after another process wrote.
   */
  readonly seesOtherWriters: boolean;
  /**
   * A value that changes whenever a transaction commits that may have changed what the enrollment's own reads
   * show: one of its own (`changes: { enrollment }`) or one not scoped, in this process or another. Read
   * caches compare it when `changeMark` moved. Absent where the store does not keep it. With `activity`, for a
   * read that shows only that: it may stay put across commits scoped to the activity of accounts it does not show.
   */
  scopedRevision?(enrollmentId: string, activity?: ActivityShown): string;
  /**
   * Whether a commit that may have changed what the enrollment's reads show (without one: any commit) is known
   * since `changeMark` returned `mark`; with `activity`, what a read showing only that shows. Absent where
   * only the mark tells (it moves with every commit): a read cache then keeps what it rendered only while the mark
   * stayed put.
   */
  changedSince?(enrollmentId: string | undefined, mark: string, activity?: ActivityShown): boolean;
  /**
   * Calls `done(true)` once `changeMark` and `scopedRevision` reflect every commit made, in any process, before
   * the call; `done(false)` when that cannot be known now (then nothing kept may be replayed). Absent where they
   * always do (SQLite reads the file's own mark); PostgreSQL learns other processes' commits from notifications,
   * which arrive a little after the commit.
   */
  syncChanges?(done: (current: boolean) => void): void;
  /** Resolves once the store can serve (schema migrated); rejects with why it cannot. */
  ready(): Promise<void>;
  close(): Promise<void>;
}

/**
 * The database cannot be reached or cannot serve for now (connection refused or lost, server
 * shutting down, file locked by another process past the timeout, I/O error). Nothing of the
 * failed call can be assumed done; callers answer that the service is briefly unavailable.
 */
/** `syncChanges` as a promise: whether the store has heard of every commit made before the call. */
export function changesSynced(store: Store): Promise<boolean> {
  return store.syncChanges ? new Promise((resolve) => store.syncChanges!(resolve)) : Promise.resolve(true);
}

export class StoreUnavailable extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'StoreUnavailable';
  }
}

/** A unique constraint failed; callers may retry (another writer got there first). */
export class UniqueViolation extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UniqueViolation';
  }
}
