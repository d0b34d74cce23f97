// What the domain functions need from the outside world, and the one way they write.
import type { Transaction } from '../contract/resources.ts';
import type { LastWrites, Repos, Store, TransactionOptions, TransactionRow } from '../storage/store.ts';
import type { Now } from './clock.ts';
import { type NewEvent, recordEvent } from './events.ts';
import type { InstitutionConnector } from './institution.ts';

export interface Deps {
  store: Store;
  /** Real time. */
  now: Now;
  /** The institutions behind the enrollments (the sandbox's simulated banks). */
  institutions: InstitutionConnector;
  /** A transaction in the shape webhook payloads carry it (its links under the public URL). */
  eventTransaction: (row: TransactionRow) => Transaction;
  /** Enrollment-clock delay before a new transaction's enrichment completes. */
  enrichDelayMs: number;
  /** Largest `n` of the sandbox's `history.<n>` users. */
  maxHistory: number;
  /** Rows of a large history written per commit (default HISTORY_BATCH_ROWS). */
  historyBatchRows?: number;
  /** Called after a commit that recorded events, so the delivery worker wakes up. */
  onEvents: () => void;
}

export type Emit = (event: NewEvent) => Promise<string>;

/**
 * Runs `fn` in a store transaction. Events it emits are written to the outbox in that same
 * transaction, so a change and the events it causes commit (or roll back) together.
 */
export function transact<T>(deps: Deps, fn: (tx: Repos, emit: Emit, lastWrites: LastWrites) => Promise<T>): Promise<T> {
  return transactWith(deps, fn, undefined);
}

/**
 * `transact` for a write that changes only the rows of one enrollment (beside the outbox): reads of
 * other enrollments' data stay valid across it. Not for writes that touch anything shared (an
 * application, another enrollment).
 */
export function transactFor<T>(
  deps: Deps,
  enrollmentId: string,
  fn: (tx: Repos, emit: Emit, lastWrites: LastWrites) => Promise<T>,
  /** The one account whose rows (and idempotency keys) the transaction changes, if it changes no other. */
  accountId?: string,
): Promise<T> {
  return transactWith(deps, fn, { changes: accountId === undefined ? { enrollment: enrollmentId } : { enrollment: enrollmentId, account: accountId } });
}

/**
 * `transact` for a write of rows no kept read shows (connect tokens and sessions, signing keys) and the outbox: every
 * kept read stays valid across it.
 */
export function transactUnshown<T>(deps: Deps, fn: (tx: Repos, emit: Emit, lastWrites: LastWrites) => Promise<T>): Promise<T> {
  return transactWith(deps, fn, { changes: 'unshown' });
}

async function transactWith<T>(
  deps: Deps,
  fn: (tx: Repos, emit: Emit, lastWrites: LastWrites) => Promise<T>,
  options: TransactionOptions | undefined,
): Promise<T> {
  let emitted = 0;
  const result = await deps.store.transaction(
    (tx, lastWrites) =>
      fn(
        tx,
        async (event) => {
          emitted += 1;
          return recordEvent(tx, event, deps.now());
        },
        lastWrites,
      ),
    options,
  );
  if (emitted > 0) deps.onEvents();
  return result;
}
