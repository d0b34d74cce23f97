// What every server process on one PostgreSQL database knows of the others' commits, for its read cache.
//
// A write transaction counts up the revision of what it changed (its enrollment's row of `change_scopes`, the
// row of one account of it, `<enrollment>/<account>`, or the row of every scope, '*') and, in the same transaction, notifies CHANGES_CHANNEL with the scope and its new
// revision. PostgreSQL delivers a notification to every listening session once its transaction commits, and
// only then, in commit order. Each process listens on a connection of its own and keeps in memory the revisions
// it was told of: a read cache compares them without asking the database anything per read. A read of an
// enrollment depends on its enrollment's revision and on that of the account whose activity it shows: of none
// (the accounts as resources), of one (a balance, a transactions page), or of any when it does not say.
//
// A notification reaches another process a little after the writer's COMMIT has returned, so a client that
// wrote through one process and reads through another at once could be replayed what was kept before its write.
// Before a replay, the read cache therefore waits for a barrier on the listening connection: a lone Sync
// message, which the server answers with ReadyForQuery, and before it sends every notification of the
// transactions committed before the Sync arrived (a committing session signals the listeners before its own
// client hears of the commit, and a listening session handles that signal before it next reports
// ReadyForQuery). One barrier is in flight at a time; the requests that arrive meanwhile share the next one.
//
// While the listening connection is down, or not yet up, there is no barrier and nothing is replayed:
// notifications may have been missed. Each time it is established again the epoch moves on, which makes
// everything kept before stale.
import pg from 'pg';
import { type ActivityShown, type ChangeScope, countsNoRevision } from '../store.ts';
import { type ConnectionOptions, connectionTarget } from './connection.ts';

export const CHANGES_CHANNEL = 'aggregation_changes';
/** The row counted up by a commit not scoped to one enrollment: every kept read depends on it. */
export const ANY_SCOPE = '*';

/** Counts up the scope's revision and notifies every listening process: in the writing transaction, before COMMIT. */
const COUNT_UP = `WITH counted AS (
    INSERT INTO change_scopes (scope, revision) VALUES ($1::text, 1)
    ON CONFLICT (scope) DO UPDATE SET revision = change_scopes.revision + 1
    RETURNING revision
  )
  SELECT revision, pg_notify('${CHANGES_CHANNEL}', $1::text || ' ' || revision) FROM counted`;

export interface Counted {
  scope: string;
  revision: number;
}

/** The scope of a change to one account's activity: `<enrollment>/<account>` (ids have no `/`). */
const accountScope = (enrollmentId: string, accountId: string): string => `${enrollmentId}/${accountId}`;
/** Where each process counts the changes to any account of the enrollment it learned (never written to the table). */
const anyAccountScope = (enrollmentId: string): string => `${enrollmentId}/`;

/** Counts the transaction's change in its scope ('outbox' and 'unshown' count nothing: no kept read shows them). */
export async function countChange(
  connection: { command(sql: string, params: unknown[]): Promise<pg.QueryResult> },
  changes: ChangeScope | undefined,
): Promise<Counted | undefined> {
  if (countsNoRevision(changes)) return undefined;
  const scope = !changes ? ANY_SCOPE : changes.account ? accountScope(changes.enrollment, changes.account) : changes.enrollment;
  const { rows } = await connection.command(COUNT_UP, [scope]);
  return { scope, revision: Number((rows[0] as { revision: number }).revision) };
}

/** A barrier not answered in this long means a connection that is gone without saying so: it is replaced. */
const BARRIER_TIMEOUT_MS = 5_000;
const FIRST_RETRY_MS = 100;
const LAST_RETRY_MS = 5_000;
/** Scopes remembered at most; beyond, the memory is dropped and the epoch moves on (everything kept is stale). */
const MAX_SCOPES = 200_000;

/** Told whether `changeMark` and `scopedRevision` now reflect every commit made before the call. */
export type Synced = (current: boolean) => void;

export class ChangeFeed {
  private readonly options: ConnectionOptions;
  private client: pg.Client | undefined;
  private listening = false;
  private closed = false;
  /** Moves on each time the listening connection is established: kept reads from before are stale. */
  private epoch = 0;
  /** Moves on with every revision learned and every change of the connection's state. */
  private changes = 0;
  /** `changes` when the connection's state (or the epoch) last changed. */
  private resetAt = 0;
  /** Each scope's revision as learned, and `changes` when it was. */
  private readonly revisions = new Map<string, { revision: number; at: number }>();
  /** Waiting for the next barrier; the barrier in flight, as the function that settles it. */
  private waiting: Synced[] = [];
  private inFlight: ((answered: boolean) => void) | undefined;
  /** The next barrier is scheduled (`barrierSoon`). */
  private soon = false;
  private retryMs = FIRST_RETRY_MS;
  private retry: NodeJS.Timeout | undefined;

  constructor(options: ConnectionOptions) {
    this.options = options;
    this.connect();
  }

  /** Changes whenever a revision is learned or the listening connection comes or goes. */
  mark(): string {
    return `pg.${this.changes}`;
  }

  /**
   * The revisions of everything ('*'), of the enrollment and of the activity shown (one account's, or the changes
   * to any account's), as known here, under the current epoch.
   */
  revision(enrollmentId: string, activity?: ActivityShown): string {
    const of = (scope: string) => this.revisions.get(scope)?.revision ?? 0;
    const shown = this.activityScope(enrollmentId, activity);
    return `${this.epoch}.${of(ANY_SCOPE)}.${of(enrollmentId)}${shown === undefined ? '' : `.${of(shown)}`}`;
  }

  /**
   * Whether anything that may change the enrollment's reads (showing `activity`; without an enrollment, any read)
   * was learned since `mark` was read: a revision of it or of '*', or the connection coming or going.
   */
  changedSince(enrollmentId: string | undefined, mark: string, activity?: ActivityShown): boolean {
    const since = Number(mark.slice('pg.'.length));
    if (enrollmentId === undefined) return this.changes > since;
    const at = (scope: string | undefined) => (scope === undefined ? 0 : (this.revisions.get(scope)?.at ?? 0));
    return this.resetAt > since || at(ANY_SCOPE) > since || at(enrollmentId) > since || at(this.activityScope(enrollmentId, activity)) > since;
  }

  /** The scope of the account activity a read shows: one account's, any account's (not said), or none. */
  private activityScope(enrollmentId: string, activity: ActivityShown | undefined): string | undefined {
    if (activity === 'none') return undefined;
    return activity === undefined ? anyAccountScope(enrollmentId) : accountScope(enrollmentId, activity.account);
  }

  /** A commit of this process: known at once, before its notification comes back. */
  committed({ scope, revision }: Counted): void {
    this.learn(scope, revision);
  }

  /**
   * Calls `done(true)` once every notification of the commits made before this call has been received, or
   * `done(false)` when that cannot be known (the listening connection is down).
   */
  sync(done: Synced): void {
    if (!this.listening) {
      done(false);
      return;
    }
    this.waiting.push(done);
    if (!this.inFlight && !this.soon) this.barrier();
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.retry);
    const client = this.client;
    this.drop();
    await client?.end().catch(() => undefined);
  }

  private learn(scope: string, revision: number): void {
    if ((this.revisions.get(scope)?.revision ?? 0) >= revision) return;
    this.changes += 1;
    if (this.revisions.size >= MAX_SCOPES && !this.revisions.has(scope)) {
      this.revisions.clear();
      this.epoch += 1;
      this.resetAt = this.changes;
    }
    this.revisions.set(scope, { revision, at: this.changes });
    // A change to one account's activity is also one to the reads that show any account's.
    const slash = scope.indexOf('/');
    if (slash > 0) {
      const any = anyAccountScope(scope.slice(0, slash));
      this.revisions.set(any, { revision: (this.revisions.get(any)?.revision ?? 0) + 1, at: this.changes });
    }
  }

  private notified(payload: string | undefined): void {
    const space = payload?.lastIndexOf(' ') ?? -1;
    if (!payload || space <= 0) return;
    const revision = Number(payload.slice(space + 1));
    if (Number.isSafeInteger(revision)) this.learn(payload.slice(0, space), revision);
  }

  private connect(): void {
    if (this.closed) return;
    const client = new pg.Client({
      ...connectionTarget(this.options),
      keepAlive: true,
      application_name: 'aggregation-server changes',
    });
    this.client = client;
    client.on('error', () => this.lost(client));
    client.on('end', () => this.lost(client));
    client.on('notification', (message) => {
      if (this.client === client && message.channel === CHANGES_CHANNEL) this.notified(message.payload);
    });
    client
      .connect()
      .then(() => client.query(`LISTEN ${CHANGES_CHANNEL}`))
      .then(
        () => {
          if (this.client !== client) return;
          this.listening = true;
          this.epoch += 1;
          this.changes += 1;
          this.resetAt = this.changes;
          this.retryMs = FIRST_RETRY_MS;
        },
        () => this.lost(client),
      );
  }

  /** The connection failed or ended: nothing is replayed until a new one listens. */
  private lost(client: pg.Client): void {
    if (this.client !== client) return;
    this.drop();
    client.end().catch(() => undefined);
    if (this.closed) return;
    this.retry = setTimeout(() => this.connect(), this.retryMs);
    this.retry.unref();
    this.retryMs = Math.min(this.retryMs * 2, LAST_RETRY_MS);
  }

  private drop(): void {
    this.client = undefined;
    this.listening = false;
    this.changes += 1;
    this.resetAt = this.changes;
    const inFlight = this.inFlight;
    this.inFlight = undefined;
    inFlight?.(false);
    const waiting = this.waiting;
    this.waiting = [];
    for (const done of waiting) done(false);
  }

  /**
   * The next barrier, once the requests read with this answer have asked for it too: a barrier costs the process
   * about as much as replaying a read (a write and a read of the socket, and waking the database's session), so each
   * should serve as many as it can. The answer is read among the event loop's other input; the requests read in the
   * same turn ask for a barrier in that turn's check phase (the read cache's check), so the barrier goes out in the
   * check phase of the next turn, which follows at once.
   */
  private barrierSoon(): void {
    if (this.soon || this.inFlight || this.waiting.length === 0) return;
    this.soon = true;
    setImmediate(() =>
      setImmediate(() => {
        this.soon = false;
        if (this.waiting.length > 0 && this.listening && !this.inFlight) this.barrier();
      }),
    );
  }

  /** One Sync on the listening connection for everything waiting now; what arrives meanwhile waits for the next. */
  private barrier(): void {
    const client = this.client!;
    const batch = this.waiting;
    this.waiting = [];
    let settled = false;
    const settle = (answered: boolean) => {
      if (settled) return;
      settled = true;
      clearTimeout(timeout);
      if (this.inFlight === settle) this.inFlight = undefined;
      const current = answered && this.client === client && this.listening;
      for (const done of batch) done(current);
      this.barrierSoon();
    };
    this.inFlight = settle;
    const timeout = setTimeout(() => (this.client === client ? this.lost(client) : settle(false)), BARRIER_TIMEOUT_MS);
    // pg's extension point for messages of one's own (as cursors use it): submit writes, the handlers hear back.
    client.query({
      submit: (connection: { sync(): void }) => {
        connection.sync();
      },
      handleReadyForQuery: () => settle(true),
      handleError: () => settle(false),
    } as unknown as pg.QueryConfig);
  }
}
