// Smoke program of openapi-generator's typescript-axios client: the shared scenario (apps/polyglot/src/smoke.ts)
// against a running sandbox server (AGGREGATION_BASE_URL, AGGREGATION_TOKEN), one line per step, exiting 1 when a
// step failed. Compiled with the generated sources (see apps/polyglot/README.md).
import { isAxiosError } from 'axios';
import {
  AccountsApi,
  Configuration,
  type ModelError,
  PayeeType,
  PaymentSchemeName,
  PaymentsApi,
  TransactionsApi,
} from '../../../../../clients/openapi-generator/typescript-axios';

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
  const configuration = new Configuration({ basePath: baseUrl, username: token, password: '' });
  const accounts = new AccountsApi(configuration);
  const transactions = new TransactionsApi(configuration);
  const payments = new PaymentsApi(configuration);
  let checkingId = '';

  await step('accounts', async () => {
    const { data } = await accounts.listAccounts();
    checkingId = data.find((account) => account.links.payments)?.id ?? '';
    check(checkingId, 'no account with payments');
    return `${data.length} accounts`;
  });

  await step('transactions', async () => {
    const seen: string[] = [];
    let pages = 0;
    for (let fromId: string | undefined; pages < 1000; ) {
      const { data: page } = await transactions.listTransactions(checkingId, PAGE_SIZE, fromId);
      pages += 1;
      seen.push(...page.map((transaction) => transaction.id));
      if (page.length < PAGE_SIZE) break;
      fromId = page.at(-1)!.id;
    }
    const { data: everything } = await transactions.listTransactions(checkingId);
    check(everything.map((transaction) => transaction.id).join() === seen.join(), 'the pages differ from the full list');
    return `${seen.length} transactions in ${pages} pages of ${PAGE_SIZE}`;
  });

  await step('balances', async () => {
    const { data } = await accounts.getAccountBalances(checkingId);
    check(/^-?\d+\.\d{2}$/.test(data.ledger) && /^-?\d+\.\d{2}$/.test(data.available), `balances ${JSON.stringify(data)}`);
    return `ledger ${data.ledger}, available ${data.available}`;
  });

  const payee = { scheme: PaymentSchemeName.Zelle, address: 'jane.doe@example.com', name: 'Jane Doe', type: PayeeType.PAYEE_PERSON };
  const pay = (memo: string) => payments.createPayment(checkingId, { amount: '1.00', memo, payee }, crypto.randomUUID());

  await step('payment_mfa', async () => {
    const { status, data } = await pay('mfa');
    check(status === 200 && 'connect_token' in data && data.connect_token, `${status}: ${JSON.stringify(data)}`);
    return '200 challenge with a connect_token';
  });

  await step('payment', async () => {
    const { status, data } = await pay('Lunch');
    check(status === 202 && 'id' in data && data.id.startsWith('pay_') && data.amount === '1.00', `${status}: ${JSON.stringify(data)}`);
    return `202 Payment ${data.id}`;
  });

  const createPayee = (name: string, address: string) =>
    payments.createPayee(checkingId, { scheme: PaymentSchemeName.Zelle, address, name, type: PayeeType.PAYEE_PERSON });

  await step('payee_mfa', async () => {
    const { data } = await createPayee('mfa', 'mfa@example.com');
    check('connect_token' in data && data.connect_token, `no MFA challenge: ${JSON.stringify(data)}`);
    return 'challenge with a connect_token';
  });

  await step('payee', async () => {
    const { data } = await createPayee('Sam Lee', 'sam.lee@example.com');
    check('name' in data && data.name === 'Sam Lee', `no Payee: ${JSON.stringify(data)}`);
    return `Payee ${data.name}`;
  });

  await step('error', async () => {
    try {
      await accounts.getAccount('acc_does_not_exist');
    } catch (error) {
      check(isAxiosError<ModelError>(error) && error.response, `not an answer: ${String(error)}`);
      const body = error.response.data;
      check(error.response.status === 404 && body.error.code, `status ${error.response.status}`);
      return `404 ${body.error.code}`;
    }
    throw new Error('an unknown account was found');
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
