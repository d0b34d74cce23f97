// The reference webhook receiver: verifies every event with the client's verifyWebhook (the signature against each
// live secret, the timestamp within the tolerance), answers 2xx before doing the work, and does the work of an event
// once, whatever the number of deliveries.
//
//   AGGREGATION_WEBHOOK_SECRET=whsec_... PORT=4242 node receiver.js     # POST http://127.0.0.1:4242/webhooks
import { createServer } from 'node:http';
import { verifyWebhook } from '@aggregation/client';

/** Starts the receiver; resolves with its URL once it listens. */
export async function startReceiver({ port = 0, secrets, onEvent = () => {} }) {
  const seen = new Set();
  const server = createServer((req, res) => {
    if (req.method !== 'POST' || req.url !== '/webhooks') return res.writeHead(404).end();
    const chunks = [];
    req.on('data', (chunk) => chunks.push(chunk));
    req.on('end', async () => {
      const raw = Buffer.concat(chunks);
      let event;
      try {
        event = await verifyWebhook(raw, req.headers['service-signature'], secrets);
      } catch (error) {
        return res.writeHead(400, { 'content-type': 'text/plain' }).end(`refused: ${error.message}`);
      }
      res.writeHead(204).end();
      // A redelivery of an event already handled is acknowledged above and not handled twice.
      if (seen.has(event.id)) return;
      seen.add(event.id);
      onEvent(event);
    });
  });
  await new Promise((resolve) => server.listen(port, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${server.address().port}/webhooks`, close: () => new Promise((resolve) => server.close(resolve)) };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const secret = process.env.AGGREGATION_WEBHOOK_SECRET;
  if (!secret) {
    console.error('receiver: set AGGREGATION_WEBHOOK_SECRET (whsec_...)');
    process.exit(2);
  }
  const receiver = await startReceiver({
    port: Number(process.env.PORT ?? 4242),
    secrets: [secret],
    onEvent: (event) => console.log(`receiver: ${event.type} ${event.id}`),
  });
  console.log(`receiver: listening on ${receiver.url}`);
  for (const signal of ['SIGINT', 'SIGTERM']) process.once(signal, () => receiver.close().then(() => process.exit(0)));
}
