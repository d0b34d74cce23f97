import { createClient } from '@aggregation/client';

const client = createClient({
  token: process.env.ACCESS_TOKEN!,
  baseUrl: 'http://localhost:3000',
  version: '2020-10-12',
});

const { links } = await client.entrypoint();
console.log(links.accounts, links.institutions);
