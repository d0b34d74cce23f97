// What the domain functions need from the outside world, and the one way they write.
import type { Repos, Store } from '../storage/store.ts';
import type { Now } from './clock.ts';
import { type NewEvent, recordEvent } from './events.ts';

export interface Deps {
  store: Store;
  /** Real time. */
  now: Now;
  /** Absolute base of the links put into webhook payloads. */
  publicUrl: string;
  /** Enrollment-clock delay before a new transaction's enrichment completes. */
  enrichDelayMs: number;
  /** Largest `n` of the sandbox's `history.<n>` users. */
  maxHistory: number;
  /** Called after a commit that recorded events, so the delivery worker wakes up. */
  onEvents: () => void;
}

export type Emit = (event: NewEvent) => Promise<string>;

/**
 * Runs `fn` in a store transaction. Events it emits are written to the outbox in that same
 * transaction, so a change and the events it causes commit (or roll back) together.
 */
export async function transact<T>(deps: Deps, fn: (tx: Repos, emit: Emit) => Promise<T>): Promise<T> {
  let emitted = 0;
  const result = await deps.store.transaction((tx) =>
    fn(tx, async (event) => {
      emitted += 1;
      return recordEvent(tx, event, deps.now());
    }),
  );
  if (emitted > 0) deps.onEvents();
  return result;
}
