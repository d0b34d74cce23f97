import { createClient } from '@aggregation/client';

const client = createClient({
  token: process.env.ACCESS_TOKEN!,
  baseUrl: process.env.BASE_URL,
  version: '2020-10-12',
});

const { ACCOUNT_ID, TRANSACTION_ID } = process.env;
const transaction = await client.transactions.get(ACCOUNT_ID!, TRANSACTION_ID!);
console.log(transaction.date, transaction.amount, transaction.description);
