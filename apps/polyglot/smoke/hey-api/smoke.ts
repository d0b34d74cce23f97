// Smoke program of @hey-api/openapi-ts's Fetch client: the shared scenario (smoke/typescript/scenario.ts) with this
// client's calls. Compiled with the generated sources, which have no project of their own.
import { client } from '../../../../clients/hey-api/src/client.gen';
import { createPayee, createPayment, getAccount, getAccountBalances, listAccounts, listTransactions } from '../../../../clients/hey-api/src/sdk.gen';
import { runScenario, sandbox } from '../typescript/scenario';

const { baseUrl, token } = sandbox();
// HTTP Basic with the token as the username and an empty password.
client.setConfig({ baseUrl, headers: { authorization: `Basic ${btoa(`${token}:`)}` } });
const person = { scheme: 'zelle', type: 'person' } as const;

void runScenario({
  listAccounts: async () =>
    (await listAccounts({ throwOnError: true })).data.map((account) => ({ id: account.id, canPay: Boolean(account.links.payments) })),
  listTransactions: async (accountId, page) =>
    (await listTransactions({ path: { account_id: accountId }, query: { count: page?.count, from_id: page?.fromId }, throwOnError: true })).data,
  balances: async (accountId) => (await getAccountBalances({ path: { account_id: accountId }, throwOnError: true })).data,
  // Both answers are the PaymentOrMfaChallenge union, told apart by their fields.
  pay: async (accountId, memo) => {
    const { data, response } = await createPayment({
      path: { account_id: accountId },
      body: { amount: '1.00', memo, payee: { ...person, address: 'jane.doe@example.com', name: 'Jane Doe' } },
      headers: { 'Idempotency-Key': crypto.randomUUID() },
      throwOnError: true,
    });
    return { ...('connect_token' in data ? { connectToken: data.connect_token } : data), status: response.status };
  },
  addPayee: async (accountId, name, address) => {
    const { data, response } = await createPayee({ path: { account_id: accountId }, body: { ...person, address, name }, throwOnError: true });
    return { ...('connect_token' in data ? { connectToken: data.connect_token } : data), status: response.status };
  },
  missingAccount: async (accountId) => {
    const { error, response } = await getAccount({ path: { account_id: accountId } });
    return { status: response?.status ?? 0, code: error && 'error' in error ? error.error.code : '' };
  },
});
