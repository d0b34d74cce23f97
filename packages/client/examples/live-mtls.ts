import { readFileSync } from 'node:fs';
import { createClient } from '@aggregation/client/node';

const client = createClient({
  token: process.env.AGGREGATION_TOKEN!, // a live token_...
  baseUrl: process.env.AGGREGATION_BASE_URL,
  cert: readFileSync(process.env.CLIENT_CERT_FILE!, 'utf8'), // issued to your application
  key: readFileSync(process.env.CLIENT_KEY_FILE!, 'utf8'),
});
try {
  console.log(await client.accounts.list());
} finally {
  await client.close();
}
