// Storage on PostgreSQL, for several server processes on one database. Reads outside a
// transaction share a few pipelined connections (connection.ts: SharedReads); a transaction is one
// pooled client between BEGIN and COMMIT (READ
// COMMITTED: writers of one enrollment queue on its row through getForUpdate). The store opens
// at once and migrates in the background; every query waits for that (`ready()` reports it).
// Each write counts up its scope's revision and notifies the other processes (changes.ts).
import { setTimeout as sleep } from 'node:timers/promises';
import { sqlRepos } from '../sql/repos.ts';
import type { Store } from '../store.ts';
import { ChangeFeed, countChange } from './changes.ts';
import { coalescing, createPool, isRetryable, PgConnection, type PoolOptions, SharedReads, storeError } from './connection.ts';
import { migrate } from './migrations.ts';

export type PostgresOptions = PoolOptions;

/** Runs of a transaction that failed on a deadlock or serialization failure, before giving up. */
const MAX_ATTEMPTS = 5;
/**
 * Once commits have added this many rows to a table (a `history.<n>` user, written in batches), its
 * statistics are refreshed at once: with the old ones the planner takes a new account for a small one and sorts
 * its pages (tens of ms each on 100,000 rows) instead of walking the keyset index (well under 1 ms).
 */
const ANALYZE_AFTER_ROWS = 10_000;

/**
 * Waits for every statement of a transaction and gives the revision counted and COMMIT's answer; when one failed,
 * throws the first failure in the order they were sent (the cause: those after it failed as the aborted transaction's).
 */
async function settledInOrder<Counted, Committed>(
  begun: Promise<unknown>,
  last: readonly Promise<unknown>[],
  counting: Promise<Counted> | undefined,
  committing: Promise<Committed>,
): Promise<[Counted | undefined, Committed]> {
  const settled = await Promise.allSettled([begun, ...last, counting, committing]);
  for (const outcome of settled) if (outcome.status === 'rejected') throw outcome.reason;
  return [(await counting) as Counted | undefined, await committing];
}

export function openPostgresStore(options: PostgresOptions): Store {
  const pool = createPool(options);
  const migrated = migrate(pool);
  // Queries wait for the migrations; the failure itself is reported by ready() and by each query.
  migrated.catch(() => undefined);
  let isReady = false;
  const ready = async () => {
    if (isReady) return;
    await migrated;
    isReady = true;
  };
  let closed = false;
  const feed = new ChangeFeed(options);
  const reads = new SharedReads(options);
  /** Rows bulk-inserted per table since its statistics were last refreshed. */
  const unanalyzed = new Map<string, number>();

  const transaction: Store['transaction'] = async (fn, options) => {
    for (let attempt = 1; ; attempt++) {
      if (closed) throw new Error('store is closed');
      await ready();
      const client = await pool.connect().catch((error: unknown) => {
        throw storeError(error);
      });
      let broken = false;
      const last: Promise<unknown>[] = [];
      const connection = new PgConnection(coalescing(client));
      try {
        // BEGIN goes out with the transaction's first statements (the pool's clients pipeline).
        const begun = Promise.all([
          connection.command('BEGIN'),
          ...(options?.durable === false ? [connection.command('SET LOCAL synchronous_commit TO OFF')] : []),
        ]);
        // Its failure fails the statements after it too; it is reported below or by them.
        begun.catch(() => undefined);
        const result = await fn(sqlRepos(connection), (writes) => last.push(...writes));
        // COMMIT would commit the other writes past one whose statement never went out: wait for the tick on which pg
        // fails such a statement, and send no COMMIT after one; nor after a last write already failed before it asked
        // for its statement. A statement that fails in the database aborts the transaction instead (below).
        if (last.length > 0) {
          await new Promise((resolve) => process.nextTick(resolve));
          if (connection.unsent) throw storeError(connection.unsent);
          await Promise.race([...last, undefined]);
        }
        // The revision and COMMIT go out with the last writes, in one round trip. A statement that fails aborts the
        // transaction: the statements after it fail too, and COMMIT ends it rolled back.
        const counting = connection.changedRows > 0 || last.length > 0 ? countChange(connection, options?.changes) : undefined;
        const committing = connection.command('COMMIT');
        connection.ended = true;
        const [counted, committed] = await settledInOrder(begun, last, counting, committing);
        if (committed.command !== 'COMMIT') throw new Error(`the transaction ended with ${committed.command}, not COMMIT`);
        if (counted) feed.committed(counted);
        for (const [table, inserted] of connection.bulkInserted) {
          const rows = (unanalyzed.get(table) ?? 0) + inserted;
          unanalyzed.set(table, rows >= ANALYZE_AFTER_ROWS ? 0 : rows);
          // Committed already: a failure here only leaves the statistics to autovacuum.
          if (rows >= ANALYZE_AFTER_ROWS) await client.query(`ANALYZE ${table}`).catch(() => undefined);
        }
        return result;
      } catch (error) {
        // Last writes handed over before `fn` failed fail with the transaction: that is reported by its error.
        for (const write of last) write.catch(() => undefined);
        await client.query('ROLLBACK').catch(() => {
          broken = true;
        });
        // Nothing was written: run it again after a short, jittered pause.
        if (isRetryable(error) && attempt < MAX_ATTEMPTS) {
          await sleep(Math.random() * 10 * attempt);
          continue;
        }
        throw storeError(error);
      } finally {
        // After a statement pg failed to send, it may count as prepared a statement the connection does not have.
        client.release(broken || connection.unsent !== undefined);
      }
    }
  };

  return {
    ...sqlRepos(new PgConnection(reads, ready)),
    transaction,
    // Other processes' commits are learned from their notifications; syncChanges waits for those sent so far.
    changeMark: () => feed.mark(),
    scopedRevision: (enrollmentId, activity) => feed.revision(enrollmentId, activity),
    changedSince: (enrollmentId, mark, activity) => feed.changedSince(enrollmentId, mark, activity),
    syncChanges: (done) => feed.sync(done),
    seesOtherWriters: true,
    ready,
    close: async () => {
      if (closed) return;
      closed = true;
      await feed.close();
      await migrated.catch(() => undefined);
      await reads.end();
      await pool.end();
    },
  };
}
