// The shared smoke scenario (apps/polyglot/src/smoke.ts) for the TypeScript clients. Each program says how its
// generated client makes each call and what it read (`ScenarioClient`); this runs the steps against a sandbox server
// (AGGREGATION_BASE_URL, AGGREGATION_TOKEN), prints one line per step, `step <name>: ok <what it saw>` or
// `step <name>: fail <why>`, and exits 1 when a step failed. Compiled with each program (its tsconfig.json).

/** What a client read from a payment or payee answer: the challenge's token, or the created resource's fields. */
export type Created = { status?: number; connectToken?: string; id?: string; amount?: string; name?: string };

export type ScenarioClient = {
  /** Every account, and whether it can pay. */
  listAccounts(): Promise<{ id: string; canPay: boolean }[]>;
  /** A page of transactions (every one without `page`), newest first; `date` as YYYY-MM-DD. */
  listTransactions(accountId: string, page?: { count: number; fromId?: string }): Promise<{ id: string; date: string }[]>;
  balances(accountId: string): Promise<{ ledger: string; available: string }>;
  /** A payment of 1.00 to jane.doe@example.com (a new payee, Jane Doe, a person) with an Idempotency-Key. */
  pay(accountId: string, memo: string): Promise<Created>;
  /** A Zelle payee, a person. */
  addPayee(accountId: string, name: string, address: string): Promise<Created>;
  /** An account that does not exist, its error body read as the Error model. */
  missingAccount(accountId: string): Promise<{ status: number; code: string }>;
};

export const pageSize = 25;
const money = /^-?\d+\.\d{2}$/;

/** The server and the access token the runner gives. */
export function sandbox(): { baseUrl: string; token: string } {
  const baseUrl = process.env.AGGREGATION_BASE_URL;
  const token = process.env.AGGREGATION_TOKEN;
  if (!baseUrl || !token) throw new Error('set AGGREGATION_BASE_URL and AGGREGATION_TOKEN');
  return { baseUrl, token };
}

export function check(condition: unknown, message: string): asserts condition {
  if (!condition) throw new Error(message);
}

const describe = (value: unknown) => JSON.stringify(value);

export async function runScenario(client: ScenarioClient): Promise<void> {
  let failed = false;
  const step = async (name: string, body: () => Promise<string>) => {
    try {
      console.log(`step ${name}: ok ${await body()}`);
    } catch (error) {
      failed = true;
      console.log(`step ${name}: fail ${error instanceof Error ? error.message : String(error)}`.replace(/\n/g, ' '));
    }
  };
  let accountId = '';

  await step('accounts', async () => {
    const accounts = await client.listAccounts();
    accountId = accounts.find((account) => account.canPay)?.id ?? '';
    check(accountId, 'no account with payments');
    return `${accounts.length} accounts`;
  });

  await step('transactions', async () => {
    const seen: string[] = [];
    let pages = 0;
    for (let fromId: string | undefined; ; ) {
      const page = await client.listTransactions(accountId, { count: pageSize, fromId });
      pages += 1;
      check(
        page.every((transaction, i) => i === 0 || transaction.date <= page[i - 1]!.date),
        'a page is not newest first',
      );
      seen.push(...page.map((transaction) => transaction.id));
      if (page.length < pageSize) break;
      fromId = page.at(-1)!.id;
      check(pages < 1000, 'paging does not end');
    }
    const everything = await client.listTransactions(accountId);
    check(everything.map((transaction) => transaction.id).join() === seen.join(), 'the pages differ from the full list');
    return `${seen.length} transactions in ${pages} pages of ${pageSize}`;
  });

  await step('balances', async () => {
    const balances = await client.balances(accountId);
    check(money.test(balances.ledger) && money.test(balances.available), `balances ${describe(balances)}`);
    return `ledger ${balances.ledger}, available ${balances.available}`;
  });

  // A client that does not expose the status is judged by what it read.
  const status = (answer: Created, expected: number) => answer.status === undefined || answer.status === expected;

  await step('payment_mfa', async () => {
    const answer = await client.pay(accountId, 'mfa');
    check(status(answer, 200) && answer.connectToken, `no MFA challenge read: ${describe(answer)}`);
    return '200 challenge with a connect_token';
  });

  await step('payment', async () => {
    const answer = await client.pay(accountId, 'Lunch');
    check(status(answer, 202) && answer.id?.startsWith('pay_') && answer.amount === '1.00', `no Payment read: ${describe(answer)}`);
    return `202 Payment ${answer.id}`;
  });

  await step('payee_mfa', async () => {
    const answer = await client.addPayee(accountId, 'mfa', 'mfa@example.com');
    check(status(answer, 200) && answer.connectToken, `no MFA challenge read: ${describe(answer)}`);
    return 'challenge with a connect_token';
  });

  await step('payee', async () => {
    const answer = await client.addPayee(accountId, 'Sam Lee', 'sam.lee@example.com');
    check(answer.name === 'Sam Lee', `no Payee read: ${describe(answer)}`);
    return `Payee ${answer.name}`;
  });

  await step('error', async () => {
    const answer = await client.missingAccount('acc_does_not_exist');
    check(answer.status === 404 && answer.code, `no Error read: ${describe(answer)}`);
    return `404 ${answer.code}`;
  });

  process.exitCode = failed ? 1 : 0;
}
