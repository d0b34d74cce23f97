// Smoke program of @hey-api/openapi-ts's Fetch client: the shared scenario (apps/polyglot/src/smoke.ts) against a
// running sandbox server (AGGREGATION_BASE_URL, AGGREGATION_TOKEN), one line per step, exiting 1 when a step failed.
import { client } from '../../../../clients/hey-api/src/client.gen';
import { createPayee, createPayment, getAccount, getAccountBalances, listAccounts, listTransactions } from '../../../../clients/hey-api/src/sdk.gen';

const PAGE_SIZE = 25;
const baseUrl = process.env.AGGREGATION_BASE_URL;
const token = process.env.AGGREGATION_TOKEN;
if (!baseUrl || !token) throw new Error('set AGGREGATION_BASE_URL and AGGREGATION_TOKEN');

let failed = false;
async function step(name: string, body: () => Promise<string>): Promise<void> {
  try {
    console.log(`step ${name}: ok ${await body()}`);
  } catch (error) {
    failed = true;
    console.log(`step ${name}: fail ${error instanceof Error ? error.message : String(error)}`.replace(/\n/g, ' '));
  }
}

function check(condition: unknown, message: string): asserts condition {
  if (!condition) throw new Error(message);
}

async function main(): Promise<void> {
  // HTTP Basic with the token as the username and an empty password.
  client.setConfig({ baseUrl, headers: { authorization: `Basic ${btoa(`${token}:`)}` } });
  let accountId = '';

  await step('accounts', async () => {
    const { data } = await listAccounts({ throwOnError: true });
    accountId = data.find((account) => account.links.payments)?.id ?? '';
    check(accountId, 'no account with payments');
    return `${data.length} accounts`;
  });

  await step('transactions', async () => {
    const seen: string[] = [];
    let pages = 0;
    for (let fromId: string | undefined; pages < 1000; ) {
      const { data: page } = await listTransactions({
        path: { account_id: accountId },
        query: { count: PAGE_SIZE, from_id: fromId },
        throwOnError: true,
      });
      pages += 1;
      seen.push(...page.map((transaction) => transaction.id));
      if (page.length < PAGE_SIZE) break;
      fromId = page.at(-1)!.id;
    }
    const { data: everything } = await listTransactions({ path: { account_id: accountId }, throwOnError: true });
    check(everything.map((transaction) => transaction.id).join() === seen.join(), 'the pages differ from the full list');
    return `${seen.length} transactions in ${pages} pages of ${PAGE_SIZE}`;
  });

  await step('balances', async () => {
    const { data } = await getAccountBalances({ path: { account_id: accountId }, throwOnError: true });
    check(/^-?\d+\.\d{2}$/.test(data.ledger) && /^-?\d+\.\d{2}$/.test(data.available), `balances ${JSON.stringify(data)}`);
    return `ledger ${data.ledger}, available ${data.available}`;
  });

  const payee = { scheme: 'zelle', address: 'jane.doe@example.com', name: 'Jane Doe', type: 'person' } as const;
  const pay = (memo: string) =>
    createPayment({
      path: { account_id: accountId },
      body: { amount: '1.00', memo, payee },
      headers: { 'Idempotency-Key': crypto.randomUUID() },
      throwOnError: true,
    });

  await step('payment_mfa', async () => {
    const { data, response } = await pay('mfa');
    check(response.status === 200 && 'connect_token' in data && data.connect_token, `${response.status}: ${JSON.stringify(data)}`);
    return '200 challenge with a connect_token';
  });

  await step('payment', async () => {
    const { data, response } = await pay('Lunch');
    check(
      response.status === 202 && 'id' in data && data.id.startsWith('pay_') && data.amount === '1.00',
      `${response.status}: ${JSON.stringify(data)}`,
    );
    return `202 Payment ${data.id}`;
  });

  const addPayee = (name: string, address: string) =>
    createPayee({ path: { account_id: accountId }, body: { scheme: 'zelle', address, name, type: 'person' }, throwOnError: true });

  await step('payee_mfa', async () => {
    const { data } = await addPayee('mfa', 'mfa@example.com');
    check('connect_token' in data && data.connect_token, `no MFA challenge: ${JSON.stringify(data)}`);
    return 'challenge with a connect_token';
  });

  await step('payee', async () => {
    const { data } = await addPayee('Sam Lee', 'sam.lee@example.com');
    check('name' in data && data.name === 'Sam Lee', `no Payee: ${JSON.stringify(data)}`);
    return `Payee ${data.name}`;
  });

  await step('error', async () => {
    const { error, response } = await getAccount({ path: { account_id: 'acc_does_not_exist' } });
    check(response?.status === 404 && error && 'error' in error && error.error.code, `status ${response?.status}: ${JSON.stringify(error)}`);
    return `404 ${error.error.code}`;
  });
}

main().then(
  () => {
    process.exitCode = failed ? 1 : 0;
  },
  (error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  },
);
