import { createClient } from '@aggregation/client';

const client = createClient({
  token: process.env.ACCESS_TOKEN!,
  baseUrl: process.env.BASE_URL,
  version: '2020-10-12',
});

const { links } = await client.entrypoint();
console.log(links.accounts, links.institutions);
