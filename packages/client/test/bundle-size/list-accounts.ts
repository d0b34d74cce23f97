// What the bundle-size budget measures: an application that lists accounts, as a browser bundle of the client.
import { createClient } from '@aggregation/client';

const client = createClient({ token: 'test_token_example', baseUrl: 'https://api.example.com' });
export const accounts = await client.accounts.list();
