import { createClient } from '@aggregation/client';

const client = createClient({
  token: process.env.AGGREGATION_TOKEN!,
  baseUrl: process.env.AGGREGATION_BASE_URL,
  version: '2020-10-12',
});

const { ACCOUNT_ID, PAYMENT_ID } = process.env;
const payment = await client.payments.get(ACCOUNT_ID!, PAYMENT_ID!);
console.log(payment.id, payment.amount, payment.memo, payment.reference);
