// Webhooks: signed deliveries checked by the client's verifyWebhook, secret rotation, retries
// with backoff, the delivery log, fired events, and delivery across a restart (deliveries and
// restart on each store).
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, test } from 'vitest';
// The client's source (see helpers/harness.ts).
import { signWebhook, verifyWebhook } from '../../client/src/index.ts';
import { openStore, signBody } from '../src/index.ts';
import { DEFAULT_APPLICATION_ID, type Store } from '../src/storage/store.ts';
import { backoff, type DeliveryWorker } from '../src/webhooks/worker.ts';
import { eventually, type Receiver, receiver, type TestApp, testApp } from './helpers/harness.ts';
import { insertPending, testWorker } from './helpers/outbox.ts';
import { appOptions, describeUnless, storeKinds } from './helpers/stores.ts';

const kinds = await storeKinds();

describe('signatures', () => {
  test('the server signs what the client verifies, one v1 per secret', async () => {
    const body = JSON.stringify({ id: 'evt_1', type: 'webhook.test', timestamp: new Date().toISOString(), payload: {} });
    const t = Math.floor(Date.now() / 1000);
    const header = signBody(body, ['whsec_one_secret_value', 'whsec_two_secret_value'], t);
    assert.match(header, /^t=\d+,v1=[0-9a-f]{64},v1=[0-9a-f]{64}$/);
    assert.equal(header, await signWebhook(body, ['whsec_one_secret_value', 'whsec_two_secret_value'], { timestamp: t }));
    await verifyWebhook(body, header, 'whsec_two_secret_value');
    await assert.rejects(verifyWebhook(body, header, 'whsec_other_secret'));
    await assert.rejects(verifyWebhook(`${body} `, header, 'whsec_one_secret_value'));
    await assert.rejects(verifyWebhook(body, header, 'whsec_one_secret_value', { now: (t + 181) * 1000 }));
  });

  test('a worker stopped while claiming hands the deliveries back, due at once, and attempts none', async () => {
    const store = openStore({ path: ':memory:' });
    await store.transaction((tx) => insertPending(tx, ['dlv_1', 'dlv_2'], 1000));
    let worker: DeliveryWorker | undefined;
    let stopped: Promise<void> | undefined;
    let claims = 0;
    // Stops the worker as its claim commits, before it can start an attempt.
    const stopAfterClaim: Store = {
      ...store,
      transaction: async (fn, options) => {
        const result = await store.transaction(fn, options);
        if (claims++ === 0) stopped = worker!.stop();
        return result;
      },
    };
    const attempts: string[] = [];
    worker = testWorker({
      store: stopAfterClaim,
      pollMs: 1000,
      concurrency: 4,
      leaseMs: 60_000,
      fetch: async (url) => {
        attempts.push(String(url));
        return new Response(null, { status: 204 });
      },
    });
    worker.start();
    await eventually(() => stopped !== undefined);
    await stopped;
    assert.deepEqual(attempts, []);
    assert.equal(claims, 2, 'the claim, then the hand-back');
    const deliveries = await store.outbox.listDeliveries(DEFAULT_APPLICATION_ID, 10);
    assert.deepEqual(deliveries.map((d) => [d.id, d.status, d.next_attempt_at]).sort(), [
      ['dlv_1', 'pending', 2000],
      ['dlv_2', 'pending', 2000],
    ]);
    await store.close();
  });

  test('backoff doubles up to the cap', () => {
    const policy = { baseDelayMs: 1000, maxDelayMs: 5000, maxAttempts: 10 };
    assert.deepEqual(
      [1, 2, 3, 4, 5].map((n) => backoff(policy, n)),
      [1000, 2000, 4000, 5000, 5000],
    );
  });
});

for (const kind of kinds) {
  describeUnless(kind.skip, `webhook deliveries (${kind.name})`, () => {
    let t: TestApp;
    let hook: Receiver;
    let secrets: string[] = [];
    let token: string;
    let enrollmentId: string;

    beforeAll(async () => {
      t = testApp({ ...appOptions(await kind.location()), webhooks: { retry: { baseDelayMs: 30, maxDelayMs: 60, maxAttempts: 4 }, pollMs: 30 } });
      hook = await receiver(() => secrets);
      ({ token, enrollmentId } = await t.enroll());
      const empty = await t.call('GET', '/sandbox/webhook', { token });
      assert.equal(empty.body.url, null);
      assert.equal(empty.body.secrets.length, 1);
      assert.equal(empty.body.secrets[0].expires_at, null);
      const settings = await t.call('PUT', '/sandbox/webhook', { token, json: { url: hook.url } });
      assert.equal(settings.body.url, hook.url);
      secrets = settings.body.secrets.map((s: any) => s.secret);
    });
    afterAll(async () => {
      await t.close();
      await hook.close();
    });

    test('every event type can be fired, with a built or a given payload', async () => {
      const types = ['webhook.test', 'enrollment.disconnected', 'transactions.processed', 'account.number_verification.processed'];
      for (const type of types) {
        const reply = await t.call('POST', '/sandbox/events', { token, json: { type } });
        assert.equal(reply.status, 202);
        assert.equal(reply.body.type, type);
        assert.match(reply.body.id, /^evt_/);
        const [received] = await hook.waitFor(1, (event) => event.id === reply.body.id);
        assert.deepEqual(received!.event, reply.body);
      }
      const given = await t.call('POST', '/sandbox/events', {
        token,
        json: { type: 'enrollment.disconnected', payload: { enrollment_id: enrollmentId, reason: 'disconnected.test' } },
      });
      assert.equal(given.status, 202);
      const [received] = await hook.waitFor(1, (event) => event.id === given.body.id);
      assert.equal(received!.event.payload.reason, 'disconnected.test');
      const nullReason = await t.call('POST', '/sandbox/events', {
        token,
        json: { type: 'enrollment.disconnected', payload: { enrollment_id: enrollmentId, reason: null } },
      });
      assert.equal(nullReason.status, 422);
      // Firing changes no state.
      assert.equal((await t.call('POST', '/sandbox/enrollment/refresh', { token })).status, 200);
    });

    test('fired events are validated: unknown types and bad payloads are 422', async () => {
      const unknown = await t.call('POST', '/sandbox/events', { token, json: { type: 'nope' } });
      assert.equal(unknown.status, 422);
      assert.ok(unknown.body.error.params.type);
      const bad = await t.call('POST', '/sandbox/events', {
        token,
        json: { type: 'account.number_verification.processed', payload: { account_id: 'acc_1', status: 'maybe' } },
      });
      assert.equal(bad.status, 422);
      assert.ok(bad.body.error.params['payload.status']);
    });

    test('rotation: both secrets sign until the old one expires', async () => {
      const old = secrets[0]!;
      const reply = await t.call('POST', '/sandbox/webhook/secrets', {
        token,
        json: { expire_current_at: new Date(Date.now() + 60_000).toISOString() },
      });
      assert.equal(reply.status, 201);
      assert.equal(reply.body.secrets.length, 2);
      assert.equal(reply.body.secrets[0].expires_at, null);
      assert.equal(reply.body.secrets[1].secret, old);
      const fresh = reply.body.secrets[0].secret;
      const fired = await t.call('POST', '/sandbox/events', { token, json: { type: 'webhook.test' } });
      const [received] = await hook.waitFor(1, (event) => event.id === fired.body.id);
      assert.equal(received!.signature.split(',').filter((item) => item.startsWith('v1=')).length, 2);
      await verifyWebhook(received!.raw, received!.signature, old);
      await verifyWebhook(received!.raw, received!.signature, fresh);
      // A past expiry drops the current secret at once.
      const now = await t.call('POST', '/sandbox/webhook/secrets', { token, json: { expire_current_at: new Date(Date.now() - 1000).toISOString() } });
      assert.equal(now.status, 201);
      assert.ok(!now.body.secrets.some((s: any) => s.secret === fresh));
      secrets = now.body.secrets.map((s: any) => s.secret);
      const next = await t.call('POST', '/sandbox/events', { token, json: { type: 'webhook.test' } });
      const [signed] = await hook.waitFor(1, (event) => event.id === next.body.id);
      await assert.rejects(verifyWebhook(signed!.raw, signed!.signature, fresh));
    });

    test('non-2xx answers are retried with backoff until delivered; the log shows the attempts', async () => {
      let attempts = 0;
      hook.respond = () => (++attempts === 3 ? 204 : 500);
      const fired = await t.call('POST', '/sandbox/events', { token, json: { type: 'webhook.test' } });
      await hook.waitFor(1, (event) => event.id === fired.body.id);
      hook.respond = () => 204;
      // The worker records the outcome after the receiver has answered, so wait for the log to say so.
      const deliveryOf = async () => {
        const log = await t.call('GET', '/sandbox/webhook/deliveries', { token });
        assert.equal(log.status, 200);
        return log.body.find((d: any) => d.event_id === fired.body.id);
      };
      await eventually(async () => (await deliveryOf())?.status === 'delivered');
      const entry = await deliveryOf();
      assert.equal(entry.attempts, 3);
      assert.equal(entry.last_status, 204);
      assert.equal(entry.next_attempt_at, null);
      assert.ok(entry.delivered_at);
    });

    test('deliveries fail after the last attempt', async () => {
      hook.respond = () => 503;
      const fired = await t.call('POST', '/sandbox/events', { token, json: { type: 'webhook.test' } });
      await eventually(async () => {
        const log = await t.call('GET', '/sandbox/webhook/deliveries', { token });
        return log.body.find((d: any) => d.event_id === fired.body.id)?.status === 'failed';
      });
      hook.respond = () => 204;
      const log = await t.call('GET', '/sandbox/webhook/deliveries', { token });
      const entry = log.body.find((d: any) => d.event_id === fired.body.id);
      assert.equal(entry.attempts, 4);
      assert.equal(entry.last_status, 503);
    });

    test('URL validation and clearing the URL', async () => {
      const bad = await t.call('PUT', '/sandbox/webhook', { token, json: { url: 'not a url' } });
      assert.equal(bad.status, 422);
      const cleared = await t.call('PUT', '/sandbox/webhook', { token, json: { url: null } });
      assert.equal(cleared.body.url, null);
      const restored = await t.call('PUT', '/sandbox/webhook', { token, json: { url: hook.url } });
      assert.equal(restored.body.url, hook.url);
    });
  });
}

describe('webhook timeouts', () => {
  test('a receiver that does not answer in time is retried', async () => {
    // The timeout is what is tested, so it fires on the first attempt however loaded the machine; a retry answered at
    // once is delivered unless a whole second passes on the loopback, twelve times over.
    const t = testApp({ webhooks: { timeoutMs: 1_000, retry: { baseDelayMs: 20, maxDelayMs: 40 }, pollMs: 20 } });
    let secrets: string[] = [];
    const hook = await receiver(() => secrets);
    hook.respond = () => 204;
    const { token } = await t.enroll();
    secrets = (await t.call('PUT', '/sandbox/webhook', { token, json: { url: hook.url.replace('/webhooks', '/slow') } })).body.secrets.map(
      (s: any) => s.secret,
    );
    hook.holdFirst = true;
    const fired = await t.call('POST', '/sandbox/events', { token, json: { type: 'webhook.test' } });
    await eventually(async () => {
      const log = await t.call('GET', '/sandbox/webhook/deliveries', { token });
      return log.body.find((d: any) => d.event_id === fired.body.id)?.status === 'delivered';
    });
    const entry = (await t.call('GET', '/sandbox/webhook/deliveries', { token })).body.find((d: any) => d.event_id === fired.body.id);
    assert.ok(entry.attempts >= 2);
    await t.close();
    await hook.close();
  });
});

describe('webhook version', () => {
  test('events use the application default version (2019-07-01 transactions)', async () => {
    const t = testApp({ defaultVersion: '2019-07-01' });
    let secrets: string[] = [];
    const hook = await receiver(() => secrets, '2019-07-01');
    const { token, enrollmentId } = await t.enroll();
    secrets = (await t.call('PUT', '/sandbox/webhook', { token, json: { url: hook.url } })).body.secrets.map((s: any) => s.secret);
    await t.call('POST', '/sandbox/enrollment/refresh', { token });
    const [received] = await hook.waitFor(1, (event) => event.type === 'transactions.processed');
    assert.equal(received!.event.payload.enrollment_id, enrollmentId);
    for (const txn of received!.event.payload.transactions) {
      assert.equal(txn.status, undefined);
      assert.ok('counterparty' in txn);
    }
    await t.close();
    await hook.close();
  });
});

for (const kind of kinds) {
  describeUnless(kind.skip, `restart (${kind.name})`, () => {
    test('undelivered events in the outbox are delivered after the store is reopened', async () => {
      const database = appOptions(await kind.location(true));
      let secrets: string[] = [];
      const hook = await receiver(() => secrets);
      try {
        // First run: the worker is not running, as when the process stops before delivering.
        const first = testApp({ ...database, webhooks: { autostart: false } });
        const { token, accounts } = await first.enroll('verify.microdeposit');
        secrets = (await first.call('PUT', '/sandbox/webhook', { token, json: { url: hook.url } })).body.secrets.map((s: any) => s.secret);
        await first.call('GET', `/accounts/${accounts[0].id}/transactions`, { token });
        const fired = await first.call('POST', '/sandbox/events', { token, json: { type: 'webhook.test' } });
        await first.close();
        assert.equal(hook.events.length, 0);

        // Second run on the same file: the worker resumes the pending deliveries.
        const second = testApp(database);
        const received = await hook.waitFor(2);
        assert.deepEqual(new Set(received.map((r) => r.event.type)), new Set(['account.number_verification.processed', 'webhook.test']));
        assert.ok(received.some((r) => r.event.id === fired.body.id));
        // The data survived too.
        const details = await second.call('GET', `/accounts/${accounts[0].id}/details`, { token });
        assert.equal(details.status, 200);
        await second.close();
      } finally {
        await hook.close();
      }
    });
  });
}

describe('delivery failures and redelivery', () => {
  let t: TestApp;
  let token: string;
  let server: Server;
  let url: string;
  /** Bodies the receiver got, and how it answers. */
  const bodies: string[] = [];
  /** How the receiver answers; `hold` never answers (the attempt's timeout gives up on it). */
  let answer: { status: number; body: string } | 'hold' = { status: 204, body: '' };
  const webhooks = (timeoutMs: number) => ({ webhooks: { timeoutMs, retry: { baseDelayMs: 20, maxDelayMs: 40, maxAttempts: 1 }, pollMs: 20 } });

  beforeAll(async () => {
    // Answers that come are never cut off by a loaded machine: only the timeout test's own app has a short timeout.
    t = testApp(webhooks(600_000));
    ({ token } = await t.enroll());
    server = createServer(async (request, response) => {
      const chunks: Buffer[] = [];
      for await (const chunk of request) chunks.push(chunk as Buffer);
      bodies.push(Buffer.concat(chunks).toString('utf8'));
      if (answer === 'hold') return;
      response.writeHead(answer.status, { 'content-type': 'application/json' }).end(answer.body);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  });
  afterAll(async () => {
    await t.close();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  /** Fires webhook.test and answers its delivery once it has failed or been delivered. */
  const fireAndSettle = async (app = t, as = token) => {
    const fired = await app.call('POST', '/sandbox/events', { token: as, json: { type: 'webhook.test' } });
    let entry: any;
    await eventually(async () => {
      const log = await app.call('GET', '/sandbox/webhook/deliveries', { token: as });
      entry = log.body.find((d: any) => d.event_id === fired.body.id);
      return entry?.status === 'failed' || entry?.status === 'delivered';
    });
    return entry;
  };

  test('the log says why an attempt failed: status and the first bytes of the body, refused, timeout', async () => {
    await t.call('PUT', '/sandbox/webhook', { token, json: { url } });
    answer = { status: 400, body: `{"error":"no signature matched"}${' '.repeat(50)}${'x'.repeat(400)}` };
    const refused = await fireAndSettle();
    assert.equal(refused.last_status, 400);
    assert.match(refused.last_error, /^HTTP 400: \{"error":"no signature matched"\} x+$/);
    assert.ok(refused.last_error.length < 230, 'only the first bytes of the body are kept');

    // The timeout fires, whatever the load: the receiver never answers.
    const short = testApp(webhooks(150));
    try {
      const { token: shortToken } = await short.enroll();
      await short.call('PUT', '/sandbox/webhook', { token: shortToken, json: { url } });
      answer = 'hold';
      const slow = await fireAndSettle(short, shortToken);
      assert.equal(slow.last_status, null);
      assert.equal(slow.last_error, 'timeout after 150 ms');
    } finally {
      await short.close();
    }

    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const closedUrl = `http://127.0.0.1:${(closed.address() as AddressInfo).port}/hook`;
    await new Promise((resolve) => closed.close(resolve));
    await t.call('PUT', '/sandbox/webhook', { token, json: { url: closedUrl } });
    const unreachable = await fireAndSettle();
    assert.equal(unreachable.last_status, null);
    assert.equal(unreachable.last_error, 'connection refused');
  });

  test('a delivery is redelivered with the same body, signed afresh, as a new delivery', async () => {
    await t.call('PUT', '/sandbox/webhook', { token, json: { url } });
    answer = { status: 500, body: 'down' };
    const failed = await fireAndSettle();
    assert.equal(failed.status, 'failed');
    const firstBody = bodies.at(-1)!;

    answer = { status: 204, body: '' };
    const reply = await t.call('POST', `/sandbox/webhook/deliveries/${failed.id}/redeliver`, { token });
    assert.equal(reply.status, 202);
    assert.notEqual(reply.body.id, failed.id);
    assert.equal(reply.body.event_id, failed.event_id);
    assert.equal(reply.body.status, 'pending');
    await eventually(async () => {
      const log = await t.call('GET', '/sandbox/webhook/deliveries', { token });
      return log.body.find((d: any) => d.id === reply.body.id)?.status === 'delivered';
    });
    assert.equal(bodies.at(-1), firstBody, 'the event is sent with the same body');
    const log = await t.call('GET', '/sandbox/webhook/deliveries', { token });
    assert.equal(log.body.find((d: any) => d.id === failed.id).status, 'failed', 'the earlier delivery stays as it was');

    const unknown = await t.call('POST', '/sandbox/webhook/deliveries/dlv_nope/redeliver', { token });
    assert.equal(unknown.status, 404);
    assert.equal(unknown.body.error.request_id, unknown.headers.get('request-id'));
    await t.call('PUT', '/sandbox/webhook', { token, json: { url: null } });
    const noUrl = await t.call('POST', `/sandbox/webhook/deliveries/${failed.id}/redeliver`, { token });
    assert.equal(noUrl.status, 409);
    assert.equal(noUrl.body.error.code, 'webhook.url_missing');
  });
});
