import { fileURLToPath } from 'node:url';
import { verifyWebhook, WebhookVerificationError } from '@aggregation/client';
import { serve } from '@hono/node-server';
import { Hono } from 'hono';

const secrets = (process.env.WEBHOOK_SECRETS ?? '').split(','); // two while a secret is rotated

export const app = new Hono();

app.post('/webhooks', async (c) => {
  try {
    // The raw bytes, exactly as sent: re-serialized JSON would not match the signature.
    const event = await verifyWebhook(await c.req.arrayBuffer(), c.req.header('Service-Signature'), secrets);
    if (event.type === 'enrollment.disconnected') console.log('reconnect', event.payload.enrollment_id);
    if (event.type === 'transactions.processed') console.log(event.payload.transactions.length, 'new');
    return c.body(null, 204);
  } catch (error) {
    // Authentic but newer than this client: acknowledge, or it is redelivered.
    if (error instanceof WebhookVerificationError && error.reason === 'unknown_event_type') return c.body(null, 204);
    return c.text('invalid signature', 400);
  }
});

// `npx tsx examples/webhook-hono.ts` listens on PORT (default 4242); a test imports `app` instead.
if (process.argv[1] === fileURLToPath(import.meta.url)) {
  serve({ fetch: app.fetch, hostname: '127.0.0.1', port: Number(process.env.PORT ?? 4242) }, (info) => {
    console.log(`Listening on http://127.0.0.1:${info.port}/webhooks`);
  });
}
