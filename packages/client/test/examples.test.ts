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

describe('examples/enrollment-hono.ts', () => {
  it("accepts the widget's result for the nonce it issued, once; refuses a forged or unissued one", async () => {
    const { createApp } = await import('@aggregation/server');
    const sandbox = createApp({ webhooks: { autostart: false } });
    const savedKey = process.env.AGGREGATION_SIGNING_KEY;
    try {
      const call = async (path: string, body?: unknown, token?: string) =>
        (await (
          await sandbox.fetch(
            new Request(`http://localhost${path}`, {
              method: body === undefined ? 'GET' : 'POST',
              headers: { 'content-type': 'application/json', ...(token ? { authorization: `Basic ${btoa(`${token}:`)}` } : {}) },
              ...(body === undefined ? {} : { body: JSON.stringify(body) }),
            }),
          )
        ).json()) as any;
      // The application's key, read once with a token of its own (as the backend's configuration holds it).
      const own = await call('/sandbox/enrollments', { username: 'username', password: 'password' });
      process.env.AGGREGATION_SIGNING_KEY = (await call('/sandbox/application', undefined, own.access_token)).signing_key.public_key;
      const example = (await import('../examples/enrollment-hono.ts')).app;
      const post = (path: string, body?: unknown) =>
        example.request(path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body ?? {}) });

      const { nonce } = (await (await post('/enrollments/nonce')).json()) as { nonce: string };
      // What the widget does with that nonce, and hands onSuccess.
      const session = await call('/sandbox/connect/sessions', { application_id: 'app_default', nonce });
      const done = await call(`/sandbox/connect/sessions/${session.id}/credentials`, {
        application_id: 'app_default',
        institution_id: 'chase',
        username: 'username',
        password: 'password',
      });
      const { access_token: accessToken, user, enrollment, signatures } = done.result;
      const result = { accessToken, user, enrollment, signatures };
      const forgedNonce = ((await (await post('/enrollments/nonce')).json()) as { nonce: string }).nonce;
      assert.equal((await post('/enrollments', { result: { ...result, accessToken: own.access_token }, nonce: forgedNonce })).status, 400);
      assert.equal((await post('/enrollments', { result, nonce: 'never-issued' })).status, 400);
      assert.equal((await post('/enrollments', { result, nonce })).status, 201);
      assert.equal((await post('/enrollments', { result, nonce })).status, 400, 'a result posted again is refused');
    } finally {
      if (savedKey === undefined) delete process.env.AGGREGATION_SIGNING_KEY;
      else process.env.AGGREGATION_SIGNING_KEY = savedKey;
      await sandbox.close();
    }
  });
});
