// Smoke program of openapi-generator's typescript-fetch client: the shared scenario (apps/polyglot/src/smoke.ts)
// against a running sandbox server (AGGREGATION_BASE_URL, AGGREGATION_TOKEN). Prints one line per step,
// `step <name>: ok <what it saw>` or `step <name>: fail <why>`, and exits non-zero when a step failed. Compiled with
// the generated sources (see apps/polyglot/README.md).
import {
  AccountsApi,
  Configuration,
  ModelErrorFromJSON,
  PaymentsApi,
  ResponseError,
  type Transaction,
  TransactionsApi,
} from '../../../../../clients/openapi-generator/typescript-fetch/src';

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
    const list = await accounts.listAccounts();
    check(list.length > 0, 'no accounts');
    const checking = list.find((account) => account.links.payments) ?? list[0]!;
    checkingId = checking.id;
    return `${list.length} accounts`;
  });

  await step('transactions', async () => {
    const seen: Transaction[] = [];
    let pages = 0;
    for (let fromId: string | undefined; ; ) {
      const page = await transactions.listTransactions({ accountId: checkingId, count: PAGE_SIZE, fromId });
      pages += 1;
      check(
        page.every((t, i) => i === 0 || t.date <= page[i - 1]!.date),
        'a page is not newest first',
      );
      seen.push(...page);
      if (page.length < PAGE_SIZE) break;
      fromId = page.at(-1)!.id;
      check(pages < 1000, 'paging does not end');
    }
    const everything = await transactions.listTransactions({ accountId: checkingId });
    check(everything.map((t) => t.id).join() === seen.map((t) => t.id).join(), 'the pages differ from the full list');
    return `${seen.length} transactions in ${pages} pages of ${PAGE_SIZE}`;
  });

  const payee = { scheme: 'zelle', address: 'jane.doe@example.com', name: 'Jane Doe', type: 'person' } as const;

  await step('balances', async () => {
    const balances = await accounts.getAccountBalances({ accountId: checkingId });
    check(/^-?\d+\.\d{2}$/.test(balances.ledger) && /^-?\d+\.\d{2}$/.test(balances.available), `balances ${JSON.stringify(balances)}`);
    return `ledger ${balances.ledger}, available ${balances.available}`;
  });

  await step('payment_mfa', async () => {
    // `object`: the declared answer type differs between descriptions (the challenge alone, or one of both).
    const answer: object = await payments.createPayment({ accountId: checkingId, createPaymentRequest: { amount: '1.00', memo: 'mfa', payee } });
    check('connectToken' in answer && typeof answer.connectToken === 'string' && answer.connectToken, `no connect_token in ${JSON.stringify(answer)}`);
    return 'challenge with a connect_token';
  });

  await step('payment', async () => {
    const answer: object = await payments.createPayment({
      accountId: checkingId,
      createPaymentRequest: { amount: '1.00', memo: 'Lunch', payee },
      idempotencyKey: crypto.randomUUID(),
    });
    check('id' in answer && String(answer.id).startsWith('pay_'), `no Payment read from the 202: got ${JSON.stringify(answer)}`);
    check('amount' in answer && answer.amount === '1.00', `amount ${'amount' in answer ? String(answer.amount) : 'missing'}`);
    return `202 Payment ${String(answer.id)}`;
  });

  await step('payee_mfa', async () => {
    const answer: object = await payments.createPayee({
      accountId: checkingId,
      createPayeeRequest: { ...payee, address: 'mfa@example.com', name: 'mfa' },
    });
    check('connectToken' in answer && typeof answer.connectToken === 'string' && answer.connectToken, `no connect_token in ${JSON.stringify(answer)}`);
    return 'challenge with a connect_token';
  });

  await step('payee', async () => {
    const answer: object = await payments.createPayee({
      accountId: checkingId,
      createPayeeRequest: { ...payee, address: 'sam.lee@example.com', name: 'Sam Lee' },
    });
    check('name' in answer && answer.name === 'Sam Lee', `no Payee read: got ${JSON.stringify(answer)}`);
    return `Payee ${String(answer.name)}`;
  });

  await step('error', async () => {
    try {
      await accounts.getAccount({ accountId: 'acc_does_not_exist' });
    } catch (error) {
      check(error instanceof ResponseError, `not a ResponseError: ${String(error)}`);
      const body = ModelErrorFromJSON(await error.response.json());
      check(error.response.status === 404 && body.error.code, `status ${error.response.status}, code ${body.error?.code}`);
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
