import { createClient } from '@aggregation/client';

const client = createClient({
  token: process.env.AGGREGATION_TOKEN!,
  baseUrl: process.env.AGGREGATION_BASE_URL,
  version: '2020-10-12',
});

const result = await client.payees.create(process.env.ACCOUNT_ID!, {
  scheme: 'zelle',
  address: 'jane.doe@example.com',
  name: 'Jane Doe',
  type: 'person',
});
// The bank may ask for multi-factor authentication: the user finishes it
// in the enrollment widget, opened with this connect token.
if (result.kind === 'mfa') console.log('MFA required', result.connectToken);
else console.log('Payee added', result.payee.name, result.payee.address);
