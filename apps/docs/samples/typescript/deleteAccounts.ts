import { createClient } from '@aggregation/client';

const client = createClient({
  token: process.env.AGGREGATION_TOKEN!,
  baseUrl: process.env.AGGREGATION_BASE_URL,
  version: '2020-10-12',
});

// Revokes the access token: every later request with it answers 403.
const { status } = await client.accounts.deleteAll();
console.log(status); // 204
