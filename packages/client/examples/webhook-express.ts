import type { IncomingMessage, ServerResponse } from 'node:http';
import { verifyWebhook, type WebhookEvent } from '@aggregation/client';

const secrets = (process.env.WEBHOOK_SECRETS ?? '').split(',');

// Express: app.post('/webhooks', webhookHandler), registered before any JSON body parser
// (it needs the raw bytes). Also a plain node:http handler.
export async function webhookHandler(req: IncomingMessage, res: ServerResponse): Promise<void> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  let event: WebhookEvent;
  try {
    event = await verifyWebhook(Buffer.concat(chunks), req.headers['service-signature']?.toString(), secrets);
  } catch {
    res.writeHead(400).end('invalid signature');
    return;
  }
  res.writeHead(204).end(); // acknowledge first, work afterwards
  console.log('event', event.id, event.type);
}
