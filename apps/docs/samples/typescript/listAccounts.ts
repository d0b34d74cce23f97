import { createClient } from '@aggregation/client';

const client = createClient({
  token: process.env.AGGREGATION_TOKEN!,
  baseUrl: process.env.AGGREGATION_BASE_URL,
  version: '2020-10-12',
});

for (const account of await client.accounts.list()) {
  const canPay = account.links.payments !== undefined;
  console.log(account.id, account.name, account.subtype, canPay);
}
