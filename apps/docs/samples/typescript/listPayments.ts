import { createClient } from '@aggregation/client';

const client = createClient({
  token: process.env.AGGREGATION_TOKEN!,
  baseUrl: process.env.AGGREGATION_BASE_URL,
  version: '2020-10-12',
});

const payments = await client.payments.list(process.env.ACCOUNT_ID!);
console.log(`${payments.length} payments`);
for (const payment of payments) {
  console.log(payment.id, payment.date, payment.amount, payment.payee.name);
}
