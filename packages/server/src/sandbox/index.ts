// The sandbox's institutions behind the domain's interface: its test users log in, its
// simulated banks report their activity, and its failure users fail on purpose.
import { ApiError, unprocessable } from '../domain/errors.ts';
import type { AccountPlan, InstitutionConnector, Login, OpeningAccount } from '../domain/institution.ts';
import { creditLimit, openingLedger } from './activity.ts';
import { Simulation } from './bank.ts';
import { applySandboxRateLimit, applyTransactionsTimeout, checkInstitutionUp, failsNothing } from './failures.ts';
import { seeded } from './prng.ts';
import { type AccountKey, SANDBOX_PASSWORD, scenarioFor, testUserNames } from './users.ts';

function login(username: string, password: string, maxHistory: number): Login {
  const scenario = scenarioFor(username);
  // As a bank refuses an unknown login; the sandbox also says what it would have taken.
  if (!scenario) {
    const users = testUserNames(maxHistory).join(', ');
    throw new ApiError(401, 'credentials_invalid', `There is no sandbox test user "${username}". The test users are: ${users}.`);
  }
  if (password !== SANDBOX_PASSWORD) {
    throw new ApiError(401, 'credentials_invalid', `The password is incorrect: every sandbox test user's password is "${SANDBOX_PASSWORD}".`);
  }
  if (scenario.historySize !== null && scenario.historySize > maxHistory) {
    throw unprocessable({ username: [`history.<n> is limited to n ≤ ${maxHistory} on this server`] });
  }
  return scenario;
}

/** Account numbers and opening balances follow from the username: the same user always gets the same accounts. */
function opening(username: string, plan: AccountPlan): OpeningAccount {
  const rng = seeded(`${username}/account/${plan.key}`);
  const credit = plan.type === 'credit';
  const accountNumber = credit
    ? `4${Array.from({ length: 15 }, () => rng.int(0, 9)).join('')}`
    : Array.from({ length: 12 }, () => rng.int(0, 9)).join('');
  return {
    accountNumber,
    ledgerCents: openingLedger(username, plan.key as AccountKey),
    creditLimitCents: credit ? creditLimit(username) : null,
  };
}

export const sandboxInstitutions: InstitutionConnector = {
  login,
  resume: (username, maxHistory) => login(username, SANDBOX_PASSWORD, maxHistory),
  opening,
  activity: (tx, user, accounts, clock, collect) => Simulation.start(tx, user, accounts, clock, collect),
  checkReachable: checkInstitutionUp,
  admitRequest: applySandboxRateLimit,
  admitTransactions: applyTransactionsTimeout,
  admitsFreely: failsNothing,
};
