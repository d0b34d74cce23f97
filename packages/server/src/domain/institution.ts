// What the domain needs from the institutions behind the enrollments: a login, the accounts it
// finds, the activity on them, and the ways an institution fails. The sandbox's simulated banks
// implement it (`sandbox/index.ts`); app.ts hands it to the domain in `Deps`.
import type { AccountRow, EnrollmentRow, Repos, Store, TransactionRow } from '../storage/store.ts';

/** An account a login finds at the institution. */
export interface AccountPlan {
  /** Which of the user's accounts it is; kept on the account row (`profile`) for the activity. */
  key: string;
  name: string;
  type: 'depository' | 'credit';
  subtype: 'checking' | 'savings' | 'credit_card';
  closed: boolean;
  /** Microdeposit outcome for accounts whose details need verification. */
  microdeposit: 'success' | 'failure' | null;
}

/** What logging in as a user gives. */
export interface Login {
  accounts: AccountPlan[];
  /** Disconnects at the first request that reaches the institution, with this reason. */
  disconnectOnUse: boolean;
  disconnectReason: string | null;
  /** The institution of an enrollment that names none. */
  defaultInstitution: string;
  /** Transactions of a very large history, written in batches; null for the usual history. */
  historySize: number | null;
  /** Requests that answer 429 before one is served. */
  rateLimitedRequests: number;
  /** Transactions requests that answer 504 before one is served. */
  transactionsTimeouts: number;
  /** The one-time code signing in asks for after the password, or null when it asks for none. */
  signInCode: string | null;
  /** Every payee and payment needs the user's approval (an MFA challenge) first. */
  paymentsNeedMfa: boolean;
}

/** Where a new account starts. */
export interface OpeningAccount {
  accountNumber: string;
  ledgerCents: number;
  creditLimitCents: number | null;
}

export interface ActivityClock {
  /** Calendar day of the enrollment clock. */
  today: string;
  /** Enrollment-clock time. */
  now: number;
  enrichDelayMs: number;
}

export interface ActivityResult {
  /** New transactions (null when not collected, e.g. for a very large history). */
  created: TransactionRow[] | null;
  /** Pending transactions that posted in place. */
  posted: TransactionRow[];
  createdCount: number;
}

/** The enrollment as the institution knows it. */
export interface InstitutionUser {
  username: string;
  institution_id: string;
  /** Day 0 of its activity: the enrollment's creation day. */
  created_day: string;
}

/** The institution's activity on the accounts of one user, written as ledger rows. */
export interface Activity {
  /** Goes on writing through `tx`: a large history is written in several transactions. */
  writeTo(tx: Repos): void;
  /** The days after `from` up to and including `through`. */
  run(from: string, through: string, historyPerDay?: number): Promise<void>;
  /**
   * The same days in steps of about `stepRows` transactions, a day split where that changes nothing: each `next()`
   * writes one step through the current `tx`, so that each step can be a transaction of its own.
   */
  steps(from: string, through: string, historyPerDay: number, stepRows: number): AsyncIterator<void, void>;
  /** What an explicit refresh finds on a day already seen. */
  refreshExtra(refreshIndex: number): Promise<void>;
  /** The two small credits of the microdeposit flow, on the account `key`. */
  microdeposits(key: string): Promise<void>;
  /** Writes balances back and returns what happened. */
  finish(): Promise<ActivityResult>;
}

export interface InstitutionConnector {
  /** Logs in as `username`: 401 `credentials_invalid` when the institution refuses, 422 beyond `maxHistory`. */
  login(username: string, password: string, maxHistory: number): Login;
  /** The login of a user who signed in already (a sign-in that goes on after its one-time code). */
  resume(username: string, maxHistory: number): Login;
  opening(username: string, plan: AccountPlan): OpeningAccount;
  /** The activity on the open, authorized `accounts` of the user, through `tx`. */
  activity(tx: Repos, user: InstitutionUser, accounts: AccountRow[], clock: ActivityClock, collect?: boolean): Promise<Activity>;
  /** Throws the institution's answer when it cannot be reached (502). */
  checkReachable(enrollment: EnrollmentRow): void;
  /** Before a request of the API is served: throws while the institution rate-limits the user (429). */
  admitRequest(store: Store, enrollment: EnrollmentRow): Promise<void>;
  /** Before transactions are read: throws when the institution times out (504). */
  admitTransactions(store: Store, enrollment: EnrollmentRow): Promise<void>;
  /** Whether `admitRequest` and `admitTransactions` let the enrollment's requests through without refusing or counting any. */
  admitsFreely(enrollment: EnrollmentRow): boolean;
}
