// Smoke program of openapi-generator's typescript-fetch client: the shared scenario (smoke/typescript/scenario.ts)
// with this client's calls. Compiled with the generated sources (see apps/polyglot/README.md).
import {
  AccountsApi,
  Configuration,
  ModelErrorFromJSON,
  PayeeType,
  PaymentSchemeName,
  PaymentsApi,
  ResponseError,
  TransactionsApi,
} from '../../../../../clients/openapi-generator/typescript-fetch/src';
import { type Created, check, runScenario, sandbox } from '../../typescript/scenario';

const { baseUrl, token } = sandbox();
// HTTP Basic with the token as the username and an empty password.
const configuration = new Configuration({ basePath: baseUrl, username: token, password: '' });
const accounts = new AccountsApi(configuration);
const transactions = new TransactionsApi(configuration);
const payments = new PaymentsApi(configuration);
const person = { scheme: PaymentSchemeName.Zelle, type: PayeeType.Person };

/** Both answers of a payment or a payee are one union, read by the fields each branch has (camelCase models). */
const read = (status: number, answer: object): Created => ({ ...answer, status });

void runScenario({
  listAccounts: async () => (await accounts.listAccounts()).map((account) => ({ id: account.id, canPay: Boolean(account.links.payments) })),
  listTransactions: async (accountId, page) =>
    (await transactions.listTransactions({ accountId, count: page?.count, fromId: page?.fromId })).map((transaction) => ({
      id: transaction.id,
      date: transaction.date.toISOString().slice(0, 10),
    })),
  balances: (accountId) => accounts.getAccountBalances({ accountId }),
  pay: async (accountId, memo) => {
    const answer = await payments.createPaymentRaw({
      accountId,
      createPaymentRequest: { amount: '1.00', memo, payee: { ...person, address: 'jane.doe@example.com', name: 'Jane Doe' } },
      idempotencyKey: crypto.randomUUID(),
    });
    return read(answer.raw.status, await answer.value());
  },
  addPayee: async (accountId, name, address) => {
    const answer = await payments.createPayeeRaw({ accountId, createPayeeRequest: { ...person, address, name } });
    return read(answer.raw.status, await answer.value());
  },
  missingAccount: async (accountId) => {
    try {
      await accounts.getAccount({ accountId });
    } catch (error) {
      check(error instanceof ResponseError, `not a ResponseError: ${String(error)}`);
      return { status: error.response.status, code: ModelErrorFromJSON(await error.response.json()).error.code };
    }
    throw new Error('an unknown account was found');
  },
});
