// What authentication reads for a token, its enrollment and the enrollment's application, kept per process while
// current (kept-reads.ts): a token's next request reads one revision instead of two rows on SQLite. An application's
// settings and version are written unscoped, which moves every enrollment's revision.
import type { ApplicationRow, EnrollmentRow, Store } from '../storage/store.ts';
import { KeptReads } from './kept-reads.ts';

export interface TokenReads {
  enrollment: EnrollmentRow;
  application: ApplicationRow;
}

/** Tokens kept at most: about a kilobyte each. */
const MAX_TOKENS = 2_000;

export class KnownTokens extends KeptReads<TokenReads> {
  constructor(store: Store) {
    // A token's reads show no account's activity: a payment leaves them current.
    super(store, MAX_TOKENS, (reads) => ({ enrollment: reads.enrollment.id, activity: 'none' }));
  }
}
