// verifyWebhook calls per second on one core, against the same checks done directly with
// node:crypto (parse the header, check the timestamp, HMAC, constant-time compare, parse JSON).
import { createHmac, timingSafeEqual } from 'node:crypto';
import { signWebhook, verifyWebhook } from '@aggregation/client';
import { serveParent } from '../lib/worker-side.ts';

const secret = 'whsec_bench_0123456789abcdef';
// A transactions.processed event with a few transactions: a typical body.
const transaction = (i: number) => ({
  id: `txn_bench${i}`,
  account_id: 'acc_bench',
  amount: '-12.34',
  date: '2020-10-12',
  description: 'Coffee Shop',
  status: 'posted',
  type: 'card_payment',
  running_balance: '1000.00',
  details: { processing_status: 'complete', category: 'dining', counterparty: { name: 'Coffee Shop', type: 'organization' } },
  links: { self: `https://api.example.com/accounts/acc_bench/transactions/txn_bench${i}`, account: 'https://api.example.com/accounts/acc_bench' },
});
const body = Buffer.from(
  JSON.stringify({
    id: 'evt_bench',
    type: 'transactions.processed',
    timestamp: new Date().toISOString(),
    payload: { transactions: [0, 1, 2].map(transaction) },
  }),
);
const header = await signWebhook(body, secret);

function bareVerify(raw: Buffer, signatureHeader: string, key: string): unknown {
  let t = 0;
  const candidates: string[] = [];
  for (const item of signatureHeader.split(',')) {
    const [name, value = ''] = item.split('=');
    if (name === 't') t = Number(value);
    else if (name === 'v1') candidates.push(value);
  }
  if (Math.abs(Date.now() / 1000 - t) > 180) throw new Error('stale');
  const expected = createHmac('sha256', key).update(`${t}.`).update(raw).digest();
  if (!candidates.some((c) => timingSafeEqual(Buffer.from(c, 'hex'), expected))) throw new Error('mismatch');
  return JSON.parse(raw.toString('utf8'));
}

serveParent(
  { pid: process.pid, bytes: body.length },
  {
    run: async (payload) => {
      const { seconds, which } = payload as { seconds: number; which: 'client' | 'bare' };
      const until = performance.now() + seconds * 1000;
      const started = performance.now();
      let calls = 0;
      if (which === 'client') {
        while (performance.now() < until) {
          for (let i = 0; i < 100; i++) await verifyWebhook(body, header, secret);
          calls += 100;
        }
      } else {
        while (performance.now() < until) {
          for (let i = 0; i < 100; i++) bareVerify(body, header, secret);
          calls += 100;
        }
      }
      return { calls, seconds: (performance.now() - started) / 1000 };
    },
  },
  () => undefined,
);
