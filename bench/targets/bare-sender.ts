// The limit of delivery: POSTs pre-rendered, signed webhook bodies straight to the receiver with
// the same HTTP client (fetch), signature (HMAC-SHA256 of "<t>.<body>" with node:crypto) and
// concurrency as the server's delivery worker, but with no outbox, no storage and no polling.
import { createHmac, randomUUID } from 'node:crypto';
import { sendMany } from '../lib/http.ts';
import { serveParent } from '../lib/worker-side.ts';

export interface SendArgs {
  url: string;
  secret: string;
  count: number;
  concurrency: number;
}

serveParent(
  { pid: process.pid },
  {
    send: async (payload) => {
      const { url, secret, count, concurrency } = payload as SendArgs;
      return sendMany(url, () => signedEvent(secret), count, concurrency);
    },
  },
  () => undefined,
);

/** A new webhook.test event, signed the way the delivery worker signs. */
function signedEvent(secret: string): RequestInit {
  const body = JSON.stringify({ id: `evt_${randomUUID().replace(/-/g, '')}`, type: 'webhook.test', timestamp: new Date().toISOString(), payload: {} });
  const t = Math.floor(Date.now() / 1000);
  const signature = `t=${t},v1=${createHmac('sha256', secret).update(`${t}.${body}`).digest('hex')}`;
  return {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'user-agent': 'aggregation-webhooks/1', 'Service-Signature': signature },
    body,
  };
}
