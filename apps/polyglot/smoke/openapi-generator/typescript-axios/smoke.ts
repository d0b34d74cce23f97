// Smoke program of openapi-generator's typescript-axios client: the shared scenario (smoke/typescript/scenario.ts)
// with this client's calls. Compiled with the generated sources (see apps/polyglot/README.md).
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
import { check, runScenario, sandbox } from '../../typescript/scenario';

const { baseUrl, token } = sandbox();
// HTTP Basic with the token as the username and an empty password.
const configuration = new Configuration({ basePath: baseUrl, username: token, password: '' });
const accounts = new AccountsApi(configuration);
const transactions = new TransactionsApi(configuration);
const payments = new PaymentsApi(configuration);
const person = { scheme: PaymentSchemeName.Zelle, type: PayeeType.Person };

void runScenario({
  listAccounts: async () => (await accounts.listAccounts()).data.map((account) => ({ id: account.id, canPay: Boolean(account.links.payments) })),
  listTransactions: async (accountId, page) => (await transactions.listTransactions(accountId, page?.count, page?.fromId)).data,
  balances: async (accountId) => (await accounts.getAccountBalances(accountId)).data,
  pay: async (accountId, memo) => {
    const payee = { ...person, address: 'jane.doe@example.com', name: 'Jane Doe' };
    const { status, data } = await payments.createPayment(accountId, { amount: '1.00', memo, payee }, crypto.randomUUID());
    return { ...('connect_token' in data ? { connectToken: data.connect_token } : data), status };
  },
  addPayee: async (accountId, name, address) => {
    const { status, data } = await payments.createPayee(accountId, { ...person, address, name });
    return { ...('connect_token' in data ? { connectToken: data.connect_token } : data), status };
  },
  missingAccount: async (accountId) => {
    try {
      await accounts.getAccount(accountId);
    } catch (error) {
      check(isAxiosError<ModelError>(error) && error.response, `not an answer: ${String(error)}`);
      return { status: error.response.status, code: error.response.data.error.code };
    }
    throw new Error('an unknown account was found');
  },
});
