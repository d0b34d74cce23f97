import { createClient } from '@aggregation/client';

const client = createClient({
  token: process.env.ACCESS_TOKEN!,
  baseUrl: process.env.BASE_URL,
  version: '2020-10-12',
});

for (const institution of await client.institutions.list()) {
  console.log(institution.id, institution.name, institution.products.join(', '));
}
