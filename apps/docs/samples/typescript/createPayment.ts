import { createClient } from '@aggregation/client';

const client = createClient({
  token: process.env.AGGREGATION_TOKEN!,
  baseUrl: process.env.AGGREGATION_BASE_URL,
  version: '2020-10-12',
});

// Sent with a fresh Idempotency-Key; to retry this same payment safely,
// pass result.idempotencyKey back as { idempotencyKey }.
const result = await client.payments.create(process.env.ACCOUNT_ID!, {
  amount: '25.00',
  memo: 'Dinner split',
  payee: {
    scheme: 'zelle',
    address: 'jane.doe@example.com',
    name: 'Jane Doe',
    type: 'person',
  },
});
if (result.kind === 'mfa') {
  console.log('MFA required', result.connectToken, result.idempotencyKey);
} else {
  console.log('Payment', result.payment.id, result.payment.reference);
}
