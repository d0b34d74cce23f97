// The simulated bank's activity: what happens on one day across a user's accounts. Pure and
// deterministic: the username and the day's index (days since the enrollment was created)
// decide everything, so the same username always gives the same shapes.
import { addDays } from '../domain/clock.ts';
import { bills, employers, type Merchant, merchants, people, subscriptions } from './merchants.ts';
import { type Random, seeded } from './prng.ts';
import type { AccountKey } from './users.ts';

export interface Activity {
  key: AccountKey;
  amount: number;
  description: string;
  type: string;
  category: string | null;
  counterparty: { name: string; type: 'organization' | 'person' } | null;
  /** Card payments start pending; dining ones may gain a tip when they post. */
  card: { tips: boolean } | null;
}

export interface Balances {
  /** Ledger per account, in cents (credit cards: amount owed). */
  ledger: Map<AccountKey, number>;
}

interface Profile {
  employer: (typeof employers)[number];
  salary: number;
  payday: number;
  rent: number;
  landlord: string;
  savingsTransfer: number;
  spendPerDay: number;
  cardSpendPerDay: number;
  storeSalt: number;
}

const profiles = new Map<string, Profile>();

function profileOf(username: string): Profile {
  let profile = profiles.get(username);
  if (!profile) {
    const rng = seeded(`${username}/profile`);
    profile = {
      employer: rng.pick(employers),
      salary: rng.int(1800, 4200) * 100 + rng.int(0, 99),
      payday: rng.int(0, 13),
      rent: rng.int(12, 26) * 10000,
      landlord: rng.pick(people),
      savingsTransfer: rng.int(2, 10) * 10000,
      spendPerDay: rng.int(1, 3),
      cardSpendPerDay: rng.int(1, 3),
      storeSalt: rng.int(100, 9999),
    };
    profiles.set(username, profile);
  }
  return profile;
}

/** Opening balances (cents) of the day before the history starts. */
export function openingLedger(username: string, key: AccountKey): number {
  const rng = seeded(`${username}/opening/${key}`);
  switch (key) {
    case 'checking':
      return rng.int(3000, 9000) * 100 + rng.int(0, 99);
    case 'savings':
      return rng.int(5000, 25000) * 100 + rng.int(0, 99);
    case 'credit_card':
      return rng.int(0, 800) * 100 + rng.int(0, 99);
    case 'history':
      return rng.int(10000, 20000) * 100;
    default:
      return rng.int(1000, 3000) * 100 + rng.int(0, 99);
  }
}

export function creditLimit(username: string): number {
  return seeded(`${username}/limit`).int(5, 15) * 100000;
}

function cardPurchase(rng: Random, key: AccountKey, merchant: Merchant, sign: 1 | -1, salt: number): Activity {
  const store = String((salt * 7 + rng.int(1, 999)) % 10000).padStart(4, '0');
  return {
    key,
    amount: sign * rng.int(merchant.min, merchant.max),
    description: merchant.description.replace('#', store),
    type: 'card_payment',
    category: merchant.category,
    counterparty: { name: merchant.name, type: 'organization' },
    card: { tips: merchant.tips === true },
  };
}

const dayOfMonth = (date: string): number => Number(date.slice(8, 10));
const isLastDayOfMonth = (date: string): boolean => addDays(date, 1).slice(8, 10) === '01';

/**
 * Activity of one day. `accounts` are the keys of the accounts that still take part (open,
 * authorized); `balances` is the state before the day, used for card payments and interest.
 */
export function dayActivity(
  username: string,
  dayIndex: number,
  date: string,
  accounts: ReadonlySet<AccountKey>,
  balances: Balances,
  historyPerDay = 0,
): Activity[] {
  const profile = profileOf(username);
  const rng = seeded(`${username}/day/${dayIndex}`);
  const out: Activity[] = [];
  const dom = dayOfMonth(date);
  const ledger = (key: AccountKey) => balances.ledger.get(key) ?? 0;

  for (const key of ['checking', 'success', 'failure'] as const) {
    if (!accounts.has(key)) continue;
    const main = key === 'checking';
    if ((dayIndex - profile.payday) % 14 === 0) {
      const amount = main ? profile.salary : Math.round(profile.salary / 3);
      out.push({
        key,
        amount,
        description: `${profile.employer.statement} PAYROLL PPD ID: ${String(profile.storeSalt).padStart(10, '1')}`,
        type: 'ach',
        category: 'income',
        counterparty: { name: profile.employer.name, type: 'organization' },
        card: null,
      });
    }
    const spends = main ? rng.int(0, profile.spendPerDay) : rng.int(0, 1);
    for (let i = 0; i < spends; i++) out.push(cardPurchase(rng, key, rng.pick(merchants), -1, profile.storeSalt));
    if (!main) continue;

    if (dom === 1) {
      out.push({
        key,
        amount: -profile.rent,
        description: `Zelle payment to ${profile.landlord} Conf# ${rng.int(100000000, 999999999)}`,
        type: 'zelle',
        category: 'home',
        counterparty: { name: profile.landlord, type: 'person' },
        card: null,
      });
    }
    for (const bill of bills) {
      if (dom !== bill.day) continue;
      out.push({
        key,
        amount: -rng.int(bill.min, bill.max),
        description: bill.description,
        type: 'direct_debit',
        category: bill.category,
        counterparty: { name: bill.name, type: 'organization' },
        card: null,
      });
    }
    if (rng.chance(0.08)) {
      out.push({
        key,
        amount: -rng.pick([4000, 6000, 10000, 20000]),
        description: `ATM WITHDRAWAL ${rng.int(1000, 9999)} ${rng.pick(['MAIN ST', 'BROADWAY', 'MARKET ST', '5TH AVE'])}`,
        type: 'atm',
        category: null,
        counterparty: null,
        card: null,
      });
    }
    if (dom === 15 && accounts.has('savings') && ledger('checking') > profile.savingsTransfer + 50000) {
      out.push({
        key,
        amount: -profile.savingsTransfer,
        description: 'ONLINE TRANSFER TO SAVINGS',
        type: 'transfer',
        category: null,
        counterparty: null,
        card: null,
      });
      out.push({
        key: 'savings',
        amount: profile.savingsTransfer,
        description: 'ONLINE TRANSFER FROM CHECKING',
        type: 'transfer',
        category: null,
        counterparty: null,
        card: null,
      });
    }
    const owed = ledger('credit_card');
    if (dom === 20 && accounts.has('credit_card') && owed > 0 && ledger('checking') > owed + 20000) {
      out.push({
        key,
        amount: -owed,
        description: 'CREDIT CARD AUTOPAY PAYMENT',
        type: 'transfer',
        category: 'loan',
        counterparty: null,
        card: null,
      });
      out.push({
        key: 'credit_card',
        amount: -owed,
        description: 'AUTOMATIC PAYMENT - THANK YOU',
        type: 'payment',
        category: null,
        counterparty: null,
        card: null,
      });
    }
  }

  if (accounts.has('savings') && isLastDayOfMonth(date)) {
    out.push({
      key: 'savings',
      amount: Math.max(1, Math.round((ledger('savings') * 0.0425) / 12)),
      description: 'INTEREST PAYMENT',
      type: 'interest',
      category: 'income',
      counterparty: null,
      card: null,
    });
  }

  if (accounts.has('credit_card')) {
    const purchases = rng.int(0, profile.cardSpendPerDay);
    for (let i = 0; i < purchases; i++) out.push(cardPurchase(rng, 'credit_card', rng.pick(merchants), 1, profile.storeSalt));
    for (const subscription of subscriptions) {
      if (dom !== subscription.day) continue;
      out.push({
        key: 'credit_card',
        amount: subscription.cents,
        description: subscription.description,
        type: 'card_payment',
        category: subscription.category,
        counterparty: { name: subscription.name, type: 'organization' },
        card: null,
      });
    }
  }

  out.push(...cardRefunds(username, dayIndex, accounts), ...atmFees(username, dayIndex, out));

  if (accounts.has('history') && historyPerDay > 0) {
    let spent = 0;
    for (let i = 0; i < historyPerDay - 1; i++) {
      const purchase = cardPurchase(rng, 'history', rng.pick(merchants), -1, profile.storeSalt);
      purchase.card = null;
      spent -= purchase.amount;
      out.push(purchase);
    }
    // One deposit a day keeps a very long history solvent.
    out.push({
      key: 'history',
      amount: spent + rng.int(0, 5000),
      description: `${profile.employer.statement} SETTLEMENT DEPOSIT`,
      type: 'deposit',
      category: 'income',
      counterparty: { name: profile.employer.name, type: 'organization' },
      card: null,
    });
  }
  return out;
}

// Refunds and fees draw from their own seeds, so adding them left the rest of every history as it was.

/** Now and then a merchant refunds a card purchase: a `credit` that lowers what is owed. */
function cardRefunds(username: string, dayIndex: number, accounts: ReadonlySet<AccountKey>): Activity[] {
  const rng = seeded(`${username}/refund/${dayIndex}`);
  if (!accounts.has('credit_card') || !rng.chance(0.05)) return [];
  const merchant = rng.pick(merchants);
  return [
    {
      key: 'credit_card',
      amount: -rng.int(merchant.min, merchant.max),
      description: `REFUND ${merchant.description.replace(' #', '').replace('#', '')}`,
      type: 'credit',
      category: merchant.category,
      counterparty: { name: merchant.name, type: 'organization' },
      card: null,
    },
  ];
}

/** Half of the day's ATM withdrawals are at another bank's machine, which charges a `fee`. */
function atmFees(username: string, dayIndex: number, activities: readonly Activity[]): Activity[] {
  const rng = seeded(`${username}/atm-fee/${dayIndex}`);
  return activities
    .filter((activity) => activity.type === 'atm' && rng.chance(0.5))
    .map((withdrawal) => ({
      key: withdrawal.key,
      amount: -300,
      description: 'NON-NETWORK ATM FEE',
      type: 'fee',
      category: 'service',
      counterparty: null,
      card: null,
    }));
}

/** Extra card activity found by an explicit refresh on a day already simulated. */
export function refreshActivity(username: string, refreshIndex: number, accounts: ReadonlySet<AccountKey>): Activity[] {
  const rng = seeded(`${username}/refresh/${refreshIndex}`);
  const profile = profileOf(username);
  const key: AccountKey | undefined = (['checking', 'credit_card', 'success', 'failure', 'history'] as const).find((k) => accounts.has(k));
  if (!key) return [];
  const count = rng.int(1, 2);
  const out: Activity[] = [];
  for (let i = 0; i < count; i++) out.push(cardPurchase(rng, key, rng.pick(merchants), key === 'credit_card' ? 1 : -1, profile.storeSalt));
  return out;
}
