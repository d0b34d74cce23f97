// A local webhook endpoint that keeps every delivered event, so that event bodies (which Prism does not check: it
// ignores `webhooks`) are validated against the description's webhooks.
import { once } from 'node:events';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ContractValidator, DocumentName } from '@aggregation/openapi/contract';

export type Delivery = { headers: IncomingHttpHeaders; body: string };

export type WebhookReceiver = { url: string; deliveries: Delivery[]; close(): Promise<void> };

export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const deliveries: Delivery[] = [];
  const server = createServer((request, response) => {
    let body = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => (body += chunk));
    request.on('end', () => {
      deliveries.push({ headers: request.headers, body });
      response.writeHead(204).end();
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/webhooks`,
    deliveries,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** Waits until `count` deliveries arrived or the time is up; answers how many arrived. */
export async function waitForDeliveries(receiver: WebhookReceiver, count: number, timeoutMs: number): Promise<number> {
  const deadline = Date.now() + timeoutMs;
  while (receiver.deliveries.length < count && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
  return receiver.deliveries.length;
}

/** Problems of one delivered event against the webhook of its `type` in a document. */
export function validateDelivery(document: DocumentName, validator: ContractValidator, delivery: Delivery): string[] {
  let event: { type?: unknown };
  try {
    event = JSON.parse(delivery.body) as { type?: unknown };
  } catch {
    return [`${document} webhook: the body is not JSON: ${delivery.body.slice(0, 200)}`];
  }
  const type = String(event.type);
  const webhook = validator.doc.webhooks?.[type] as { post?: { requestBody?: unknown } } | undefined;
  if (!webhook?.post?.requestBody) return [`${document} webhook: event type ${type} is not documented`];
  const problems: string[] = [];
  if (!delivery.headers['service-signature']) problems.push(`${document} webhook ${type}: no Service-Signature header`);
  const requestBody = webhook.post.requestBody as { $ref?: string };
  const base = requestBody.$ref ?? `#/webhooks/${type.replace(/~/g, '~0').replace(/\//g, '~1')}/post/requestBody`;
  for (const problem of validator.validateAt(`${base}/content/application~1json/schema`, event)) {
    problems.push(`${document} webhook ${type}: ${problem.message}`);
  }
  return problems;
}
