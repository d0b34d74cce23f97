import { createClient } from '@aggregation/client';

const client = createClient({
  token: process.env.AGGREGATION_TOKEN!,
  baseUrl: process.env.AGGREGATION_BASE_URL,
  version: '2020-10-12',
});

const account = await client.accounts.get(process.env.ACCOUNT_ID!);
console.log(account.name, account.status, account.last_four);
