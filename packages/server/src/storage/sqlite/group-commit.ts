// Group commit on SQLite's one write connection. The transactions asked for while a turn of the
// event loop reads its requests run one after another, each in a savepoint of one SQLite
// transaction, and are answered together after its single COMMIT: one sync of the log for all of
// them instead of one each, while each still succeeds or fails alone and none is answered before
// it is on disk. (node:sqlite is synchronous: a sync blocks the event loop, so unbatched, ten
// concurrent payments wait for ten syncs one after another.)
import type { DatabaseSync } from 'node:sqlite';

export interface GroupCommitOptions<Tx> {
  db: DatabaseSync;
  /** What a transaction's function is given to write through. */
  tx: Tx;
  /** Runs a batch exclusively of everything else on the connection. */
  exclusive: (work: () => Promise<void>) => Promise<void>;
  /** Why no transaction can run (the store was closed), or undefined. */
  unavailable: () => string | undefined;
  /** Called after each COMMIT. */
  committed: () => void;
}

interface Pending<Tx> {
  fn: (tx: Tx) => Promise<unknown>;
  durable: boolean;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

export class GroupCommit<Tx> {
  private readonly options: GroupCommitOptions<Tx>;
  private queue: Pending<Tx>[] = [];
  private scheduled = false;

  constructor(options: GroupCommitOptions<Tx>) {
    this.options = options;
  }

  /** Runs `fn` atomically; resolves once its writes are committed (and synced, when `durable`). */
  run<T>(fn: (tx: Tx) => Promise<T>, durable: boolean): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.queue.push({ fn, durable, resolve: resolve as (value: unknown) => void, reject });
      this.schedule();
    });
  }

  /** After this turn's I/O, so that the requests it read have asked for their transactions. */
  private schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      void this.options.exclusive(() => this.runQueued());
    });
  }

  private async runQueued(): Promise<void> {
    const batch = this.queue;
    this.queue = [];
    if (batch.length === 0) return;
    const why = this.options.unavailable();
    if (why) {
      for (const pending of batch) pending.reject(new Error(why));
      return;
    }
    // In WAL mode, NORMAL commits without syncing the log; the next FULL commit syncs it, this one included.
    const durable = batch.some((pending) => pending.durable);
    try {
      if (!durable) this.options.db.exec('PRAGMA synchronous = NORMAL');
      await this.commit(batch);
    } finally {
      if (!durable) this.options.db.exec('PRAGMA synchronous = FULL');
      // On to what was asked for meanwhile (or handed back by a batch that SQLite rolled back).
      if (this.queue.length > 0) this.schedule();
    }
  }

  /** Runs `batch` in one SQLite transaction, each in a savepoint, and settles each once that is committed or not. */
  private async commit(batch: Pending<Tx>[]): Promise<void> {
    const { db } = this.options;
    try {
      db.exec('BEGIN IMMEDIATE');
    } catch (error) {
      for (const pending of batch) pending.reject(error);
      return;
    }
    const done: { pending: Pending<Tx>; result: unknown }[] = [];
    for (const [index, pending] of batch.entries()) {
      try {
        db.exec('SAVEPOINT tx');
        const result = await pending.fn(this.options.tx);
        db.exec('RELEASE tx');
        done.push({ pending, result });
      } catch (error) {
        pending.reject(error);
        if (db.isTransaction) {
          db.exec('ROLLBACK TO tx');
          db.exec('RELEASE tx');
          continue;
        }
        // SQLite rolled the whole transaction back (a full disk, an I/O error): the ones before went with it,
        // and the ones after go in the next batch.
        for (const { pending: before } of done) before.reject(error);
        this.queue.unshift(...batch.slice(index + 1));
        return;
      }
    }
    try {
      db.exec('COMMIT');
    } catch (error) {
      if (db.isTransaction) db.exec('ROLLBACK');
      for (const { pending } of done) pending.reject(error);
      return;
    }
    this.options.committed();
    for (const { pending, result } of done) pending.resolve(result);
  }
}
