import { createClient } from '@aggregation/client';

const client = createClient({ token: process.env.ACCESS_TOKEN!, baseUrl: process.env.API_URL });

// Newest first, 100 per request; the iterator follows from_id until the range is exhausted.
const range = { startDate: '2024-01-01', endDate: '2024-03-31', pageSize: 100 };
for await (const txn of client.transactions.iterate(process.env.ACCOUNT_ID!, range)) {
  console.log(txn.date, txn.amount, txn.status, txn.description, txn.details.category);
}
