import { createClient } from '@aggregation/client';

const client = createClient({
  token: process.env.AGGREGATION_TOKEN!,
  baseUrl: process.env.AGGREGATION_BASE_URL,
  version: '2020-10-12',
});

for (const institution of await client.institutions.list()) {
  console.log(institution.id, institution.name, institution.products.join(', '));
}
