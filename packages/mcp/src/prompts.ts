// The prompt `summarize_spending`: an account's transactions of a period, read through the client (every page) and
// summed by category here, exactly (amounts are decimal strings, added in cents), so that the model writes the summary
// from totals it did not have to add up itself.
import type { AggregationClient } from '@aggregation/client';
import type { GetPromptResult, Prompt } from '@modelcontextprotocol/sdk/types.js';

export const SUMMARIZE_SPENDING = 'summarize_spending';

export const summarizeSpendingPrompt: Prompt = {
  name: SUMMARIZE_SPENDING,
  title: 'Summarize spending',
  description:
    "An account's transactions of a period, summed by category (spent, received, count), with the request to summarize where the money went.",
  arguments: [
    { name: 'account_id', description: 'The account (`acc_...`); `list_accounts` lists them.', required: true },
    { name: 'start_date', description: 'First day of the period, YYYY-MM-DD (default: 30 days before end_date).', required: false },
    { name: 'end_date', description: 'Last day of the period, YYYY-MM-DD, inclusive (default: today).', required: false },
  ],
};

/** At most this many transactions are summed; a longer period is summed up to there, and the prompt says so. */
export const MAX_SUMMED = 100_000;
const PAGE = 1_000;
const UNCATEGORIZED = 'uncategorized';

/** Thrown for arguments the prompt cannot use; the server answers it as invalid params. */
export class PromptArgumentError extends Error {}

const DATE = /^\d{4}-\d{2}-\d{2}$/;

function dateArgument(name: string, value: string | undefined): string | undefined {
  if (value === undefined || value === '') return undefined;
  if (!DATE.test(value) || Number.isNaN(Date.parse(`${value}T00:00:00Z`)) || new Date(`${value}T00:00:00Z`).toISOString().slice(0, 10) !== value) {
    throw new PromptArgumentError(`${name} must be a date as YYYY-MM-DD: ${value}`);
  }
  return value;
}

const daysBefore = (date: string, days: number) => new Date(Date.parse(`${date}T00:00:00Z`) - days * 86_400_000).toISOString().slice(0, 10);

/** `-12.5` → -1250n; amounts are decimal strings with at most two decimals. */
export function toCents(amount: string): bigint {
  const match = /^(-?)(\d+)(?:\.(\d{1,2}))?$/.exec(amount);
  if (!match) throw new Error(`not an amount: ${amount}`);
  const cents = BigInt(match[2]!) * 100n + BigInt((match[3] ?? '0').padEnd(2, '0'));
  return match[1] ? -cents : cents;
}

export function formatCents(cents: bigint): string {
  const sign = cents < 0n ? '-' : '';
  const abs = cents < 0n ? -cents : cents;
  return `${sign}${abs / 100n}.${String(abs % 100n).padStart(2, '0')}`;
}

type Totals = { spent: bigint; received: bigint; count: number };
type Summed = { byCategory: Map<string, Totals>; count: number; pending: number };

/** Sums transactions by category. Spending is money out: negative amounts on a deposit account, positive on a card. */
export function sumByCategory(
  transactions: Iterable<{ amount: string; status?: string; details?: { category?: string | null } }>,
  card: boolean,
): Summed {
  const byCategory = new Map<string, Totals>();
  let count = 0;
  let pending = 0;
  for (const transaction of transactions) {
    const category = transaction.details?.category ?? UNCATEGORIZED;
    const totals = byCategory.get(category) ?? { spent: 0n, received: 0n, count: 0 };
    const cents = toCents(transaction.amount);
    const outflow = card ? cents : -cents;
    if (outflow > 0n) totals.spent += outflow;
    else totals.received -= outflow;
    totals.count += 1;
    byCategory.set(category, totals);
    count += 1;
    if (transaction.status === 'pending') pending += 1;
  }
  return { byCategory, count, pending };
}

type Account = { id: string; name?: string; type?: string; subtype?: string; currency?: string; currency_code?: string; institution?: unknown };
type Transaction = { amount: string; status?: string; details?: { category?: string | null } };

/** The prompt's messages for its arguments, with the sums read through the client. */
export async function summarizeSpending(client: AggregationClient, args: Record<string, string | undefined>): Promise<GetPromptResult> {
  const accountId = args.account_id?.trim();
  if (!accountId) throw new PromptArgumentError('account_id is required');
  const endDate = dateArgument('end_date', args.end_date) ?? new Date().toISOString().slice(0, 10);
  const startDate = dateArgument('start_date', args.start_date) ?? daysBefore(endDate, 30);
  if (startDate > endDate) throw new PromptArgumentError(`start_date ${startDate} is after end_date ${endDate}`);

  const account = (await client.accounts.get(accountId)) as unknown as Account;
  const card = account.type === 'credit' || account.subtype === 'credit_card';
  const read: Transaction[] = [];
  let truncated = false;
  for await (const transaction of client.transactions.iterate(accountId, { startDate, endDate, pageSize: PAGE })) {
    if (read.length === MAX_SUMMED) {
      truncated = true;
      break;
    }
    read.push(transaction as unknown as Transaction);
  }
  const summed = sumByCategory(read, card);
  const currency = account.currency ?? account.currency_code ?? '';
  const institution = typeof account.institution === 'string' ? account.institution : (account.institution as { name?: string } | undefined)?.name;
  const rows = [...summed.byCategory.entries()]
    .sort(([, a], [, b]) => (b.spent > a.spent ? 1 : b.spent < a.spent ? -1 : 0))
    .map(([category, totals]) => `| ${category} | ${formatCents(totals.spent)} | ${formatCents(totals.received)} | ${totals.count} |`);
  const spent = [...summed.byCategory.values()].reduce((sum, totals) => sum + totals.spent, 0n);
  const received = [...summed.byCategory.values()].reduce((sum, totals) => sum + totals.received, 0n);
  const text = [
    `Summarize the spending of the account ${account.name ?? accountId} (${accountId}${institution ? `, ${institution}` : ''}${card ? ', a card' : ''}) from ${startDate} to ${endDate}, for its owner: where the money went, the largest categories, and anything unusual. Keep it short.`,
    '',
    `Its ${summed.count} transactions${summed.pending ? ` (${summed.pending} still pending)` : ''} of the period, summed by category${currency ? ` in ${currency}` : ''} (spent: money out; received: money in):`,
    '',
    '| category | spent | received | transactions |',
    '|---|---:|---:|---:|',
    ...rows,
    `| **total** | ${formatCents(spent)} | ${formatCents(received)} | ${summed.count} |`,
    ...(truncated ? ['', `Only the first ${MAX_SUMMED} transactions of the period (newest first) are summed; say so.`] : []),
    ...(summed.count === 0 ? ['', 'The account has no transactions in this period; say so.'] : []),
    '',
    'The table was computed by the server from every transaction of the period; `list_transactions` with the same account and dates lists them.',
  ].join('\n');
  return {
    description: `Spending of ${accountId} from ${startDate} to ${endDate}, by category`,
    messages: [{ role: 'user', content: { type: 'text', text } }],
  };
}
