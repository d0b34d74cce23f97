// Runs the webhook examples of the README: the Hono app and the node:http/Express handler.
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { signWebhook } from '../src/index.ts';

const secrets = ['whsec_old', 'whsec_new'];
const body = JSON.stringify({
  id: 'evt_1',
  type: 'enrollment.disconnected',
  timestamp: new Date().toISOString(),
  payload: { enrollment_id: 'enr_1', reason: 'credentials_changed' },
});

let hono: typeof import('../examples/webhook-hono.ts');
let express: typeof import('../examples/webhook-express.ts');
const savedSecrets = process.env.WEBHOOK_SECRETS;
beforeAll(async () => {
  process.env.WEBHOOK_SECRETS = secrets.join(',');
  hono = await import('../examples/webhook-hono.ts');
  express = await import('../examples/webhook-express.ts');
});
// The examples read their secrets once, when imported; the next test file in this worker must not see them.
afterAll(() => {
  if (savedSecrets === undefined) delete process.env.WEBHOOK_SECRETS;
  else process.env.WEBHOOK_SECRETS = savedSecrets;
});

describe('examples/webhook-hono.ts', () => {
  const post = (raw: string, signature?: string) =>
    hono.app.request('/webhooks', {
      method: 'POST',
      body: raw,
      headers: { 'Content-Type': 'application/json', ...(signature ? { 'Service-Signature': signature } : {}) },
    });

  it('acknowledges a signed event (either secret)', async () => {
    assert.equal((await post(body, await signWebhook(body, 'whsec_new'))).status, 204);
    assert.equal((await post(body, await signWebhook(body, secrets))).status, 204);
  });
  it('refuses a forged or unsigned event', async () => {
    assert.equal((await post(body, await signWebhook(body, 'whsec_attacker'))).status, 400);
    assert.equal((await post(body)).status, 400);
  });
  it('acknowledges an authentic event of a newer type', async () => {
    const newer = JSON.stringify({ id: 'evt_2', type: 'payments.settled', timestamp: new Date().toISOString(), payload: {} });
    assert.equal((await post(newer, await signWebhook(newer, 'whsec_old'))).status, 204);
  });
});

describe('examples/webhook-express.ts', () => {
  it('verifies the raw body read from the request stream', async () => {
    const server = createServer((req, res) => void express.webhookHandler(req, res));
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks`;
    try {
      const ok = await fetch(url, { method: 'POST', body, headers: { 'Service-Signature': await signWebhook(body, 'whsec_old') } });
      assert.equal(ok.status, 204);
      const tampered = await fetch(url, {
        method: 'POST',
        body: body.replace('enr_1', 'enr_2'),
        headers: { 'Service-Signature': await signWebhook(body, 'whsec_old') },
      });
      assert.equal(tampered.status, 400);
    } finally {
      server.close();
    }
  });
});
