// Group commit: transactions that arrive together share one BEGIN/COMMIT, and so one fsync.
// Each still runs alone, one after another, inside its own SAVEPOINT: a failure rolls back that
// transaction's writes only. Nobody is answered before the COMMIT that holds their writes; if the
// COMMIT fails, every transaction of the group fails.
import type { DatabaseSync } from 'node:sqlite';

export interface Queued<R> {
  fn: (tx: R) => Promise<unknown>;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

type Outcome = { ok: true; value: unknown } | { ok: false; error: unknown };

/** Most transactions under one COMMIT: bounds how long the first of them waits. */
const MAX_GROUP = 64;

export class GroupCommit<R> {
  private readonly queue: Queued<R>[] = [];
  private scheduled = false;
  private readonly db: DatabaseSync;
  private readonly repos: R;
  /** Runs a group under the store's lock (it also orders reads and closing). */
  private readonly exclusive: <T>(fn: () => Promise<T>) => Promise<T>;
  private readonly onCommit: () => void;

  constructor(db: DatabaseSync, repos: R, exclusive: <T>(fn: () => Promise<T>) => Promise<T>, onCommit: () => void) {
    this.db = db;
    this.repos = repos;
    this.exclusive = exclusive;
    this.onCommit = onCommit;
  }

  run<T>(fn: (tx: R) => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.queue.push({ fn, resolve: resolve as (value: unknown) => void, reject });
      // After the current I/O callbacks: requests read in the same turn of the event loop join the group.
      if (!this.scheduled) {
        this.scheduled = true;
        setImmediate(() => void this.drain());
      }
    });
  }

  private async drain(): Promise<void> {
    this.scheduled = false;
    while (this.queue.length > 0) {
      const group = this.queue.splice(0, MAX_GROUP);
      await this.exclusive(() => this.commit(group)).catch((error: unknown) => {
        for (const queued of group) queued.reject(error);
      });
    }
  }

  private async commit(group: Queued<R>[]): Promise<void> {
    const { db } = this;
    db.exec('BEGIN IMMEDIATE');
    const outcomes: Outcome[] = [];
    try {
      for (const queued of group) {
        db.exec('SAVEPOINT grouped');
        try {
          outcomes.push({ ok: true, value: await queued.fn(this.repos) });
          db.exec('RELEASE grouped');
        } catch (error) {
          db.exec('ROLLBACK TO grouped');
          db.exec('RELEASE grouped');
          outcomes.push({ ok: false, error });
        }
      }
      db.exec('COMMIT');
    } catch (error) {
      if (db.isTransaction) db.exec('ROLLBACK');
      throw error;
    }
    this.onCommit();
    for (const [index, outcome] of outcomes.entries()) {
      if (outcome.ok) group[index]!.resolve(outcome.value);
      else group[index]!.reject(outcome.error);
    }
  }
}
