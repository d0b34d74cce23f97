import { createClient } from '@aggregation/client';

const client = createClient({ token: process.env.AGGREGATION_TOKEN!, baseUrl: process.env.AGGREGATION_BASE_URL });

// The last 30 days, newest first, 100 per request; the iterator follows from_id until the range is exhausted.
const day = (daysAgo: number) => new Date(Date.now() - daysAgo * 86_400_000).toISOString().slice(0, 10);
const range = { startDate: day(30), endDate: day(0), pageSize: 100 };
for await (const txn of client.transactions.iterate(process.env.ACCOUNT_ID!, range)) {
  console.log(txn.date, txn.amount, txn.status, txn.description, txn.details.category);
}
