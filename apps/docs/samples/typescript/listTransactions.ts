import { createClient } from '@aggregation/client';

const client = createClient({
  token: process.env.AGGREGATION_TOKEN!,
  baseUrl: process.env.AGGREGATION_BASE_URL,
  version: '2020-10-12',
});

// Newest first. The next page starts after the last transaction received:
// pass its id as from_id.
const accountId = process.env.ACCOUNT_ID!;
const page = await client.transactions.list(accountId, { count: 25 });
for (const transaction of page) {
  console.log(transaction.date, transaction.amount, transaction.description);
}

const last = page.at(-1);
if (last) {
  const next = await client.transactions.list(accountId, { count: 25, from_id: last.id });
  console.log(`${next.length} older transactions`);
}
