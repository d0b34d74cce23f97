import { createClient } from '@aggregation/client';

const client = createClient({
  token: process.env.AGGREGATION_TOKEN!,
  baseUrl: process.env.AGGREGATION_BASE_URL,
  version: '2020-10-12',
});

const { ACCOUNT_ID, TRANSACTION_ID } = process.env;
const transaction = await client.transactions.get(ACCOUNT_ID!, TRANSACTION_ID!);
console.log(transaction.date, transaction.amount, transaction.description);
