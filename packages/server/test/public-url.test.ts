// Links in webhook payloads point where the server answers: PUBLIC_URL when set, otherwise the address startServer
// listens on, its port included (not a fixed localhost:3000).
import assert from 'node:assert/strict';
import { test } from 'vitest';
import { startServer } from '../src/index.ts';
import { basic, receiver } from './helpers/harness.ts';

async function firedTransactionLinks(publicUrl: string | undefined): Promise<{ served: string; links: string[] }> {
  const server = await startServer({ port: 0, ...(publicUrl ? { publicUrl } : {}), webhooks: { pollMs: 20 }, logError: () => {} });
  let secrets: string[] = [];
  const hook = await receiver(() => secrets);
  try {
    const call = async (method: string, path: string, token: string | undefined, body?: unknown) => {
      const response = await fetch(`${server.url}${path}`, {
        method,
        headers: { 'content-type': 'application/json', ...(token ? { authorization: basic(token) } : {}) },
        ...(body ? { body: JSON.stringify(body) } : {}),
      });
      return response.json() as Promise<Record<string, any>>;
    };
    const { access_token: token } = await call('POST', '/sandbox/enrollments', undefined, { username: 'username', password: 'password' });
    const settings = await call('PUT', '/sandbox/webhook', token, { url: hook.url });
    secrets = settings.secrets.map((secret: { secret: string }) => secret.secret);
    await call('POST', '/sandbox/events', token, { type: 'transactions.processed' });
    const [received] = await hook.waitFor(1, (event) => event.type === 'transactions.processed');
    const transactions = (received!.event.payload as { transactions: { links: Record<string, string> }[] }).transactions;
    assert.ok(transactions.length > 0);
    return { served: server.url, links: transactions.flatMap((transaction) => Object.values(transaction.links)) };
  } finally {
    await hook.close();
    await server.close();
  }
}

test('without PUBLIC_URL, webhook payloads link to the address and port the server listens on', async () => {
  const { served, links } = await firedTransactionLinks(undefined);
  assert.ok(!served.endsWith(':3000'), 'listening on a free port, not the default one');
  for (const link of links) assert.ok(link.startsWith(`${served}/accounts/`), link);
});

test("PUBLIC_URL, when set, is the base of webhook payloads' links", async () => {
  const { links } = await firedTransactionLinks('https://sandbox.example.test');
  for (const link of links) assert.ok(link.startsWith('https://sandbox.example.test/accounts/'), link);
});
