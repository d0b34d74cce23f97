// Balances: what an account can spend, from its ledger and its pending transactions.
import type { AccountRow, TransactionRow } from '../storage/store.ts';

/** Available balance: ledger less pending debits (credit cards: limit less owed and pending purchases). */
export function availableOf(account: Pick<AccountRow, 'type' | 'credit_limit_cents'>, ledger: number, pending: TransactionRow[]): number {
  if (account.type === 'credit') {
    const holds = pending.reduce((sum, txn) => sum + Math.max(0, txn.amount_cents), 0);
    return (account.credit_limit_cents ?? 0) - ledger - holds;
  }
  return ledger + pending.reduce((sum, txn) => sum + Math.min(0, txn.amount_cents), 0);
}
