// Sandbox usernames and what each triggers; other usernames are refused like a bank refuses
// an unknown login. `history.<n>` is a checking account with about n transactions, for
// exercising pagination over a very large history.
import type { AccountPlan as InstitutionAccountPlan, Login } from '../domain/institution.ts';
import { DEFAULT_INSTITUTION, DEFAULT_MICRODEPOSIT_INSTITUTION } from '../domain/institutions.ts';

export type AccountKey = 'checking' | 'savings' | 'credit_card' | 'success' | 'failure' | 'history';

export interface AccountPlan extends InstitutionAccountPlan {
  key: AccountKey;
}

/** A test user's login, and the failures it provokes on purpose. */
export interface Scenario extends Login {
  accounts: AccountPlan[];
  /** Every request that reaches the institution answers 502 (`institution.down`). */
  institutionDown: boolean;
}

export const SANDBOX_PASSWORD = 'password';
/** The largest history the sandbox can make, and the largest it makes unless configured otherwise. */
export const MAX_HISTORY = 1_000_000;
export const DEFAULT_MAX_HISTORY = 100_000;
export const MAX_RATE_LIMITED = 100;
/** The one-time code of the users whose sign-in asks for one. */
export const SANDBOX_SIGN_IN_CODE = '1234';

const REASON = /^[a-z0-9_]+(\.[a-z0-9_]+)*$/;

const plan = (key: AccountKey, name: string, subtype: AccountPlan['subtype'], extra: Partial<AccountPlan> = {}): AccountPlan => ({
  key,
  name,
  type: subtype === 'credit_card' ? 'credit' : 'depository',
  subtype,
  closed: false,
  microdeposit: null,
  ...extra,
});

const standard = (): AccountPlan[] => [
  plan('checking', 'Everyday Checking', 'checking'),
  plan('savings', 'High Yield Savings', 'savings'),
  plan('credit_card', 'Rewards Credit Card', 'credit_card'),
];

/** The test users' names, as an error tells someone who typed another one. */
export function testUserNames(maxHistory: number): string[] {
  return [
    'username',
    'verify.microdeposit',
    'disconnected',
    'disconnected.<reason>',
    'closed',
    `history.<n> (n from 1 to ${maxHistory})`,
    'mfa.device',
    'mfa.payments',
    'timeout.first_transactions',
    'institution.down',
    `rate_limited.<n> (n from 1 to ${MAX_RATE_LIMITED})`,
  ];
}

export function scenarioFor(username: string): Scenario | undefined {
  const base: Scenario = {
    accounts: standard(),
    disconnectOnUse: false,
    disconnectReason: null,
    defaultInstitution: DEFAULT_INSTITUTION,
    historySize: null,
    rateLimitedRequests: 0,
    transactionsTimeouts: 0,
    institutionDown: false,
    signInCode: null,
    paymentsNeedMfa: false,
  };
  if (username === 'verify.microdeposit') {
    return {
      ...base,
      defaultInstitution: DEFAULT_MICRODEPOSIT_INSTITUTION,
      accounts: [
        plan('success', 'Success', 'checking', { microdeposit: 'success' }),
        plan('failure', 'Failure', 'checking', { microdeposit: 'failure' }),
      ],
    };
  }
  if (username === 'disconnected' || username.startsWith('disconnected.')) {
    const reason = username === 'disconnected' ? null : username.slice('disconnected.'.length);
    if (reason === null || REASON.test(reason)) return { ...base, disconnectOnUse: true, disconnectReason: reason };
  }
  if (username === 'closed') {
    return {
      ...base,
      accounts: [plan('checking', 'Everyday Checking', 'checking', { closed: true })],
    };
  }
  const history = /^history\.(\d{1,7})$/.exec(username);
  if (history) {
    const size = Number(history[1]);
    if (size >= 1 && size <= MAX_HISTORY) {
      return { ...base, accounts: [plan('history', 'Everyday Checking', 'checking')], historySize: size };
    }
  }
  // Multi-factor authentication: at sign-in, or before every payee and payment.
  if (username === 'mfa.device') return { ...base, signInCode: SANDBOX_SIGN_IN_CODE };
  if (username === 'mfa.payments') return { ...base, paymentsNeedMfa: true };
  // The documented failures, on purpose: for testing an integration's retry and error paths.
  if (username === 'timeout.first_transactions') return { ...base, transactionsTimeouts: 1 };
  if (username === 'institution.down') return { ...base, institutionDown: true };
  const limited = /^rate_limited\.(\d{1,3})$/.exec(username);
  if (limited) {
    const requests = Number(limited[1]);
    if (requests >= 1 && requests <= MAX_RATE_LIMITED) return { ...base, rateLimitedRequests: requests };
  }
  return username === 'username' ? base : undefined;
}
