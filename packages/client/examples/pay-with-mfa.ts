import { createClient } from '@aggregation/client';

// The enrollment widget of your front end; it walks the user through the bank's MFA.
declare function openEnrollmentWidget(options: { connectToken: string }): Promise<void>;

const client = createClient({ token: process.env.AGGREGATION_TOKEN!, baseUrl: process.env.AGGREGATION_BASE_URL });
const account = (await client.accounts.list()).find((a) => a.links.payments); // only these can pay
if (!account) throw new Error('No account of this enrollment supports payments');

const payment = {
  amount: '25.00',
  memo: 'Dinner',
  payee: { scheme: 'zelle', address: 'bob@example.com', name: 'Bob', type: 'person' },
} as const;

let result = await client.payments.create(account, payment);
if (result.kind === 'mfa') {
  await openEnrollmentWidget({ connectToken: result.connectToken });
  // Same Idempotency-Key: the service makes at most one payment for this request.
  result = await client.payments.create(account, payment, { idempotencyKey: result.idempotencyKey });
}
if (result.kind === 'payment') console.log('Sent', result.payment.id, result.payment.reference);
