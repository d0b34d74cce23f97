// The sandbox's stand-in for a bank: turns simulated activity into ledger rows, day by day.
// Each simulated day first posts the pending transactions due that day, then books the day's
// activity; sequence numbers follow that order, so running balances agree with the ledger in
// the newest-first listing.
import { availableOf } from '../domain/balances.ts';
import { addDays, daysBetween } from '../domain/clock.ts';
import { newId } from '../domain/ids.ts';
import type { ActivityClock, ActivityResult, Activity as InstitutionActivity, InstitutionUser } from '../domain/institution.ts';
import { institution } from '../domain/institutions.ts';
import type { AccountRow, Repos, TransactionRow } from '../storage/store.ts';
import { type Activity, type Balances, dayActivity, refreshActivity } from './activity.ts';
import { seeded } from './prng.ts';
import type { AccountKey } from './users.ts';

interface AccountState {
  row: AccountRow;
  key: AccountKey;
  ledger: number;
  seq: number;
  pending: TransactionRow[];
  touched: boolean;
}

/** Institutions report no running balance for cards. */
const runningBalance = (state: AccountState): number | null => (state.row.type === 'credit' ? null : state.ledger);

export class Simulation implements InstitutionActivity {
  private tx: Repos;
  private readonly username: string;
  private readonly institutionId: string;
  private readonly createdDay: string;
  private readonly clock: ActivityClock;
  private readonly states: AccountState[];
  private readonly collect: boolean;
  private readonly result: ActivityResult;

  private constructor(tx: Repos, enrollment: InstitutionUser, clock: ActivityClock, states: AccountState[], collect: boolean) {
    this.tx = tx;
    this.username = enrollment.username;
    this.institutionId = enrollment.institution_id;
    this.createdDay = enrollment.created_day;
    this.clock = clock;
    this.states = states;
    this.collect = collect;
    this.result = { created: collect ? [] : null, posted: [], createdCount: 0 };
  }

  /** Accounts that still take part: open and authorized. */
  static async start(tx: Repos, enrollment: InstitutionUser, accounts: AccountRow[], clock: ActivityClock, collect = true): Promise<Simulation> {
    const states: AccountState[] = [];
    for (const row of accounts) {
      if (row.status !== 'open' || row.removed_at !== null) continue;
      states.push({
        row,
        key: row.profile as AccountKey,
        ledger: row.ledger_cents,
        seq: await tx.transactions.maxSeq(row.id),
        pending: await tx.transactions.listPending(row.id),
        touched: false,
      });
    }
    return new Simulation(tx, enrollment, clock, states, collect);
  }

  /** Goes on writing through `tx`: a large history is written in several transactions. */
  writeTo(tx: Repos): void {
    this.tx = tx;
  }

  private byKey(key: AccountKey): AccountState | undefined {
    return this.states.find((state) => state.key === key);
  }

  /** Simulates the days after `from` up to and including `through`: all of it, in one step. */
  async run(from: string, through: string, historyPerDay = 0): Promise<void> {
    for await (const _ of this.steps(from, through, historyPerDay, Number.POSITIVE_INFINITY));
  }

  async *steps(from: string, through: string, historyPerDay: number, stepRows: number): AsyncGenerator<void, void> {
    const pendingFrom = addDays(this.clock.today, -1);
    let written = 0;
    for (let day = addDays(from, 1); day <= through; day = addDays(day, 1)) {
      await this.postDue(day);
      const activities = this.activityOf(day, historyPerDay);
      // Before pendingFrom nothing is pending, and a day's posted rows are the same booked in parts as at once.
      const splittable = day < pendingFrom;
      let booked = 0;
      do {
        const part = splittable ? activities.slice(booked, booked + stepRows - written) : activities;
        await this.book(day, part);
        booked += part.length;
        written += part.length;
        if (written >= stepRows) {
          written = 0;
          yield;
        }
      } while (booked < activities.length);
    }
  }

  private activityOf(day: string, historyPerDay: number): Activity[] {
    const keys = new Set(this.states.map((state) => state.key));
    const balances: Balances = { ledger: new Map(this.states.map((state) => [state.key, state.ledger])) };
    return dayActivity(this.username, daysBetween(this.createdDay, day), day, keys, balances, historyPerDay);
  }

  /** An explicit refresh on a day already simulated still finds a little new card activity. */
  async refreshExtra(refreshIndex: number): Promise<void> {
    const keys = new Set(this.states.map((state) => state.key));
    await this.book(this.clock.today, refreshActivity(this.username, refreshIndex, keys));
  }

  /** The two small credits of the microdeposit flow. */
  async microdeposits(account: string): Promise<void> {
    const key = account as AccountKey;
    const state = this.byKey(key);
    if (!state) return;
    const rng = seeded(`${this.username}/microdeposit/${key}`);
    const bank = institution(this.institutionId);
    const activity = (amount: number): Activity => ({
      key,
      amount,
      description: `ACCTVERIFY ${bank.shortName}`,
      type: 'microdeposit',
      category: null,
      counterparty: { name: bank.name, type: 'organization' },
      card: null,
    });
    await this.book(this.clock.today, [activity(rng.int(1, 99)), activity(rng.int(1, 99))]);
  }

  private async postDue(day: string): Promise<void> {
    for (const state of this.states) {
      const due = state.pending.filter((txn) => txn.post_date !== null && txn.post_date <= day);
      if (due.length === 0) continue;
      state.pending = state.pending.filter((txn) => !due.includes(txn));
      state.touched = true;
      for (const txn of due) {
        const amount = txn.post_amount_cents ?? txn.amount_cents;
        state.ledger += amount;
        state.seq += 1;
        const posted: TransactionRow = {
          ...txn,
          seq: state.seq,
          date: day,
          amount_cents: amount,
          status: 'posted',
          running_balance_cents: runningBalance(state),
          post_date: null,
          post_amount_cents: null,
          post_replaces: false,
        };
        if (txn.post_replaces) {
          // Changed too much to be matched: the pending record goes, a new one appears.
          await this.tx.transactions.delete(txn.id);
          const replacement = { ...posted, id: newId('txn') };
          await this.tx.transactions.insertMany([replacement]);
          this.result.createdCount += 1;
          this.result.created?.push(replacement);
        } else {
          await this.tx.transactions.update(txn.id, posted);
          this.result.posted.push(posted);
        }
      }
    }
  }

  private async book(day: string, activities: Activity[]): Promise<void> {
    const pendingFrom = addDays(this.clock.today, -1);
    const rows: TransactionRow[] = [];
    // Posted first, so that a day's pending transactions lead the newest-first listing.
    const ordered = [
      ...activities.filter((a) => !this.isPending(a, day, pendingFrom)),
      ...activities.filter((a) => this.isPending(a, day, pendingFrom)),
    ];
    for (const [index, activity] of ordered.entries()) {
      const state = this.byKey(activity.key);
      if (!state) continue;
      state.touched = true;
      state.seq += 1;
      const pending = this.isPending(activity, day, pendingFrom);
      const enrichPending = day >= this.clock.today;
      const row: TransactionRow = {
        id: newId('txn'),
        account_id: state.row.id,
        seq: state.seq,
        date: day,
        amount_cents: activity.amount,
        description: activity.description,
        status: pending ? 'pending' : 'posted',
        type: activity.type,
        running_balance_cents: null,
        processing_status: enrichPending ? 'pending' : 'complete',
        category: activity.category,
        counterparty_name: activity.counterparty?.name ?? null,
        counterparty_type: activity.counterparty?.type ?? null,
        post_date: null,
        post_amount_cents: null,
        post_replaces: false,
        enrich_at: enrichPending ? this.clock.now + this.clock.enrichDelayMs : null,
      };
      if (pending) {
        const rng = seeded(`${this.username}/post/${day}/${state.seq}/${index}`);
        row.post_date = addDays(day, rng.int(1, 3));
        if (activity.card?.tips) {
          row.post_amount_cents = Math.round(activity.amount * (1 + rng.int(15, 25) / 100));
          row.post_replaces = rng.chance(0.5);
        } else {
          row.post_amount_cents = activity.amount;
        }
        state.pending.push(row);
      } else {
        state.ledger += activity.amount;
        row.running_balance_cents = runningBalance(state);
      }
      rows.push(row);
    }
    await this.tx.transactions.insertMany(rows);
    this.result.createdCount += rows.length;
    if (this.collect) this.result.created!.push(...rows);
  }

  private isPending(activity: Activity, day: string, pendingFrom: string): boolean {
    return activity.card !== null && day >= pendingFrom;
  }

  /** Writes balances back and returns what happened. */
  async finish(): Promise<ActivityResult> {
    for (const state of this.states) {
      if (!state.touched) continue;
      await this.tx.accounts.update(state.row.id, {
        ledger_cents: state.ledger,
        available_cents: availableOf(state.row, state.ledger, state.pending),
      });
    }
    return this.result;
  }
}
