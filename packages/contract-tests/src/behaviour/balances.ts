// balances: where the description states how the ledger, available balance and the transactions' running_balance
// relate, the answers agree: the running balance chains through the posted transactions (each is the ledger after
// that transaction), the ledger is the newest posted one's running balance, available is the ledger minus the debits
// not yet posted and the holds (holds are not shown, so at most that), and running_balance is null where it must be.
import type { Version } from '@aggregation/openapi/versions';
import type { Collector } from '../report/collect.ts';
import { at } from './checks.ts';
import type { Http } from './http.ts';
import { cents, money } from './money.ts';
import { rule } from './rules.ts';

type Account = { id: string; type: string; links: Record<string, string | undefined> };
type Transaction = { id: string; amount: string; status: string; running_balance: string | null };

const transactionsOp = 'GET /accounts/{account_id}/transactions';
const balancesOp = 'GET /accounts/{account_id}/balances';

export async function checkBalances(http: Http, collector: Collector, version: Version, account: Account): Promise<void> {
  const runningRule = rule(version, '#/components/schemas/Transaction/properties/running_balance/description', 'Ledger balance after this transaction');
  const nullRule = rule(
    version,
    '#/components/schemas/Transaction/properties/running_balance/description',
    '`null` for `pending` ones, and for every transaction of a credit card',
  );
  const availableRule = rule(
    version,
    '#/components/schemas/AccountBalances/properties/available/description',
    'Ledger balance minus outstanding holds and debits not yet posted.',
  );
  const listed = await http.get(`/accounts/${account.id}/transactions`, version);
  const balances = await http.get(`/accounts/${account.id}/balances`, version);
  const transactions = Array.isArray(listed.json) ? (listed.json as Transaction[]) : [];
  const { ledger, available } = (balances.json ?? {}) as { ledger?: string; available?: string };
  const card = account.type === 'credit';

  const mustBeNull = transactions.filter((t) => (card || t.status === 'pending') && t.running_balance !== null);
  collector.record(
    at(version, transactionsOp, 'balances: running_balance is null for pending and card transactions'),
    mustBeNull.length
      ? http.failure(
          listed,
          `${mustBeNull.length} transactions (first ${mustBeNull[0]!.id}, ${mustBeNull[0]!.status}, on a ${account.type} account) have running_balance ${mustBeNull[0]!.running_balance}`,
          nullRule,
        )
      : undefined,
    transactions.length,
  );
  if (card) return;

  const posted = transactions.filter((t) => t.status === 'posted');
  // Newest first: each posted transaction's running balance is the previous one's plus its amount.
  const broken = posted.findIndex((t, i) => {
    const older = posted[i + 1];
    if (!older) return false;
    const [mine, theirs, amount] = [cents(t.running_balance), cents(older.running_balance), cents(t.amount)];
    return mine === undefined || theirs === undefined || amount === undefined || mine !== theirs + amount;
  });
  collector.record(
    at(version, transactionsOp, 'balances: running_balance chains through the posted transactions'),
    broken >= 0
      ? http.failure(
          listed,
          `posted transaction ${posted[broken]!.id} (${posted[broken]!.amount}) has running_balance ${posted[broken]!.running_balance}; the one before it ${posted[broken + 1]!.running_balance}`,
          runningRule,
        )
      : undefined,
    posted.length,
  );
  const newest = posted[0];
  collector.record(
    at(version, balancesOp, "balances: the ledger is the newest posted transaction's running_balance"),
    !newest || (cents(ledger) !== undefined && newest.running_balance === ledger)
      ? undefined
      : http.failure(
          balances,
          `ledger ${ledger}, the newest posted transaction ${newest.id} has running_balance ${newest.running_balance}`,
          runningRule,
        ),
  );
  const pendingDebits = transactions.filter((t) => t.status === 'pending').reduce((sum, t) => sum + Math.min(0, cents(t.amount) ?? 0), 0);
  const ceiling = (cents(ledger) ?? 0) + pendingDebits;
  collector.record(
    at(version, balancesOp, 'balances: available is at most the ledger minus the pending debits'),
    cents(available) !== undefined && cents(ledger) !== undefined && cents(available)! <= ceiling
      ? undefined
      : http.failure(
          balances,
          `available ${available} is more than the ledger ${ledger} minus the pending debits (${money(-pendingDebits)}): ${money(ceiling)}`,
          availableRule,
        ),
  );
}
