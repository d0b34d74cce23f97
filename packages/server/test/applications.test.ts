// Applications on a shared sandbox: each sees and changes only its own enrollments, webhook URL,
// secrets, deliveries and events; a hosted sandbox has no default application and limits what a
// client address or an application creates; each application has a default version it can upgrade
// and roll back within 72 hours (on each store).
import assert from 'node:assert/strict';
import { afterAll, beforeAll, test } from 'vitest';
import { startServer } from '../src/index.ts';
import { hostedSettingsFromEnv } from '../src/settings.ts';
import { basic, caller, type Receiver, receiver, type TestApp, testApp } from './helpers/harness.ts';
import { appOptions, describeUnless, storeKinds } from './helpers/stores.ts';

const kinds = await storeKinds();

/** A new application of `t` and an enrollment of it: the key and the enrollment's token. */
async function application(t: TestApp, body: object = {}): Promise<{ id: string; key: string; token: string }> {
  const created = await t.call('POST', '/sandbox/applications', { json: body });
  assert.equal(created.status, 201, created.text);
  assert.match(created.body.key, /^test_app_key_/);
  const enrolled = await t.call('POST', '/sandbox/enrollments', {
    headers: { authorization: basic(created.body.key) },
    json: { username: 'username', password: 'password' },
  });
  assert.equal(enrolled.status, 201, enrolled.text);
  return { id: created.body.application.id, key: created.body.key, token: enrolled.body.access_token };
}

for (const kind of kinds) {
  describeUnless(kind.skip, `applications are isolated (${kind.name})`, () => {
    let t: TestApp;
    let hookA: Receiver;
    let hookB: Receiver;
    let a: { id: string; token: string; secrets: string[] };
    let b: { id: string; token: string; secrets: string[] };

    beforeAll(async () => {
      t = testApp({ ...appOptions(await kind.location()), webhooks: { pollMs: 30 } });
      hookA = await receiver(() => a.secrets);
      hookB = await receiver(() => b.secrets);
      const first = await application(t);
      // The second one is the default application, as a local sandbox makes it.
      const second = await t.enroll();
      a = { id: first.id, token: first.token, secrets: [] };
      b = { id: 'app_default', token: second.token, secrets: [] };
      for (const [app, hook] of [
        [a, hookA],
        [b, hookB],
      ] as const) {
        const set = await t.call('PUT', '/sandbox/webhook', { token: app.token, json: { url: hook.url } });
        assert.equal(set.status, 200);
        app.secrets = set.body.secrets.map((secret: { secret: string }) => secret.secret);
      }
    });
    afterAll(async () => {
      await t.close();
      await hookA.close();
      await hookB.close();
    });

    test('each token reads its own application, webhook URL and secrets', async () => {
      assert.equal((await t.call('GET', '/sandbox/application', { token: a.token })).body.id, a.id);
      assert.equal((await t.call('GET', '/sandbox/application', { token: b.token })).body.id, 'app_default');
      const seenByA = await t.call('GET', '/sandbox/webhook', { token: a.token });
      const seenByB = await t.call('GET', '/sandbox/webhook', { token: b.token });
      assert.equal(seenByA.body.url, hookA.url);
      assert.equal(seenByB.body.url, hookB.url);
      const secretsOf = (reply: { body: { secrets: { secret: string }[] } }) => reply.body.secrets.map((s) => s.secret);
      assert.deepEqual(secretsOf(seenByA), a.secrets);
      assert.deepEqual(secretsOf(seenByB), b.secrets);
      assert.ok(!secretsOf(seenByA).some((secret) => b.secrets.includes(secret)), 'the applications share a secret');
    });

    test("changing one application's URL and secrets leaves the other's alone", async () => {
      const rotated = await t.call('POST', '/sandbox/webhook/secrets', {
        token: a.token,
        json: { expire_current_at: new Date(Date.now() + 60_000).toISOString() },
      });
      assert.equal(rotated.status, 201);
      a.secrets = rotated.body.secrets.map((s: { secret: string }) => s.secret);
      assert.equal(a.secrets.length, 2);
      const other = await t.call('GET', '/sandbox/webhook', { token: b.token });
      assert.deepEqual(
        other.body.secrets.map((s: { secret: string }) => s.secret),
        b.secrets,
      );
      assert.equal(other.body.url, hookB.url);
    });

    test("each application's events go to its own URL, signed with its own secrets, and show in its own log", async () => {
      const fromA = await t.call('POST', '/sandbox/events', { token: a.token, json: { type: 'webhook.test' } });
      const fromB = await t.call('POST', '/sandbox/events', { token: b.token, json: { type: 'webhook.test' } });
      await hookA.waitFor(1, (event) => event.id === fromA.body.id);
      await hookB.waitFor(1, (event) => event.id === fromB.body.id);
      await t.app.worker.idle();
      assert.deepEqual(
        hookA.events.map((received) => received.event.id),
        [fromA.body.id],
      );
      assert.deepEqual(
        hookB.events.map((received) => received.event.id),
        [fromB.body.id],
      );
      assert.deepEqual([...hookA.rejected, ...hookB.rejected], []);
      // A's event carries one signature per live secret of A, none of B's.
      assert.equal(hookA.events[0]!.signature.split(',v1=').length - 1, 2);
      const logOf = async (token: string) =>
        (await t.call('GET', '/sandbox/webhook/deliveries', { token })).body.map((d: { event_id: string }) => d.event_id);
      assert.deepEqual(await logOf(a.token), [fromA.body.id]);
      assert.deepEqual(await logOf(b.token), [fromB.body.id]);
    });

    test("one application cannot redeliver another's delivery: it does not exist for it", async () => {
      const deliveries = await t.call('GET', '/sandbox/webhook/deliveries', { token: a.token });
      const [delivery] = deliveries.body as { id: string }[];
      assert.ok(delivery);
      const byB = await t.call('POST', `/sandbox/webhook/deliveries/${delivery.id}/redeliver`, { token: b.token });
      assert.equal(byB.status, 404, byB.text);
      const byA = await t.call('POST', `/sandbox/webhook/deliveries/${delivery.id}/redeliver`, { token: a.token });
      assert.equal(byA.status, 202, byA.text);
      await t.app.worker.idle();
      assert.ok(
        hookB.events.every((received) => received.event.id !== byA.body.event_id),
        "A's event never reaches B's URL",
      );
    });

    test("clearing one application's URL stops its deliveries only", async () => {
      await t.call('PUT', '/sandbox/webhook', { token: a.token, json: { url: null } });
      const fromA = await t.call('POST', '/sandbox/events', { token: a.token, json: { type: 'webhook.test' } });
      const fromB = await t.call('POST', '/sandbox/events', { token: b.token, json: { type: 'webhook.test' } });
      await hookB.waitFor(1, (event) => event.id === fromB.body.id);
      await t.app.worker.idle();
      assert.ok(!hookA.events.some((received) => received.event.id === fromA.body.id));
      assert.ok(!hookB.events.some((received) => received.event.id === fromA.body.id));
    });
  });

  describeUnless(kind.skip, `the application's version (${kind.name})`, () => {
    let t: TestApp;
    let hook: Receiver;
    let app: { id: string; token: string };
    let secrets: string[] = [];

    beforeAll(async () => {
      t = testApp({ ...appOptions(await kind.location()), webhooks: { pollMs: 30 } });
      app = await application(t, { default_version: '2019-07-01' });
      hook = await receiver(() => secrets, '2019-07-01');
      secrets = (await t.call('PUT', '/sandbox/webhook', { token: app.token, json: { url: hook.url } })).body.secrets.map(
        (s: { secret: string }) => s.secret,
      );
    });
    afterAll(async () => {
      await t.close();
      await hook.close();
    });

    test("requests without Service-Version use the version of the token's application; the header still wins", async () => {
      const accounts = await t.call('GET', '/accounts', { token: app.token });
      assert.equal(accounts.headers.get('service-version'), '2019-07-01');
      assert.equal(typeof accounts.body[0].institution, 'string', 'the 2019-07-01 shape names the institution');
      const asked = await t.call('GET', '/accounts', { token: app.token, version: '2020-10-12' });
      assert.equal(asked.headers.get('service-version'), '2020-10-12');
      // Another application's token keeps the server's default.
      const { token } = await t.enroll();
      assert.equal((await t.call('GET', '/accounts', { token })).headers.get('service-version'), '2020-10-12');
    });

    test("events are rendered in the application's version", async () => {
      const fired = await t.call('POST', '/sandbox/events', { token: app.token, json: { type: 'transactions.processed' } });
      // The receiver checks each event against the 2019-07-01 description.
      const [received] = await hook.waitFor(1, (event) => event.id === fired.body.id);
      const [transaction] = received!.event.payload.transactions;
      assert.ok('counterparty' in transaction, 'the 2019-07-01 shape has a top-level counterparty');
      assert.equal('account_id' in transaction, false);
      assert.equal('status' in transaction, false);
    });

    test('upgrade, roll back within 72 hours, and not after', async () => {
      const before = await t.call('GET', '/sandbox/application', { token: app.token });
      const { signing_key: key, ...rest } = before.body;
      assert.deepEqual(rest, { id: app.id, name: 'Sandbox application', default_version: '2019-07-01', previous_version: null, rollback_until: null });
      assert.match(key.public_key, /^[A-Za-z0-9_-]{43}$/);
      const none = await t.call('POST', '/sandbox/application/version/rollback', { token: app.token });
      assert.equal(none.status, 422);
      assert.equal(none.body.error.code, 'application_version.rollback_unavailable');

      const upgraded = await t.call('POST', '/sandbox/application/version', { token: app.token, json: { version: '2020-10-12' } });
      assert.equal(upgraded.status, 200, upgraded.text);
      assert.equal(upgraded.body.default_version, '2020-10-12');
      assert.equal(upgraded.body.previous_version, '2019-07-01');
      assert.ok(Date.parse(upgraded.body.rollback_until) > Date.now() + 71 * 3_600_000);
      assert.equal((await t.call('GET', '/accounts', { token: app.token })).headers.get('service-version'), '2020-10-12');
      const downgrade = await t.call('POST', '/sandbox/application/version', { token: app.token, json: { version: '2019-07-01' } });
      assert.equal(downgrade.status, 422);
      assert.equal(downgrade.body.error.code, 'application_version.downgrade');

      const rolledBack = await t.call('POST', '/sandbox/application/version/rollback', { token: app.token });
      assert.equal(rolledBack.status, 200, rolledBack.text);
      assert.deepEqual(rolledBack.body, before.body);
      assert.equal((await t.call('GET', '/accounts', { token: app.token })).headers.get('service-version'), '2019-07-01');

      await t.call('POST', '/sandbox/application/version', { token: app.token, json: { version: '2020-10-12' } });
      await t.call('POST', '/sandbox/clock/advance', { token: app.token, json: { seconds: 72 * 3600 + 60 } });
      const late = await t.call('POST', '/sandbox/application/version/rollback', { token: app.token });
      assert.equal(late.status, 422);
      assert.equal(late.body.error.code, 'application_version.rollback_expired');
      const after = await t.call('GET', '/sandbox/application', { token: app.token });
      assert.equal(after.body.default_version, '2020-10-12');
      assert.equal(after.body.previous_version, null);
    });
  });
}

test('a hosted sandbox has no default application: enrollments need a valid application key', async () => {
  const t = testApp({ defaultApplication: false });
  try {
    const anonymous = await t.call('POST', '/sandbox/enrollments', { json: { username: 'username', password: 'password' } });
    assert.equal(anonymous.status, 401);
    assert.equal(anonymous.body.error.code, 'application_key_required');
    const wrong = await t.call('POST', '/sandbox/enrollments', {
      headers: { authorization: basic('test_app_key_notakeyofthisserver') },
      json: { username: 'username', password: 'password' },
    });
    assert.equal(wrong.status, 403);
    const { id, token } = await application(t);
    assert.equal((await t.call('GET', '/sandbox/application', { token })).body.id, id);
  } finally {
    await t.close();
  }
});

for (const kind of kinds) {
  describeUnless(kind.skip, `limits (${kind.name})`, () => {
    test('an application holds at most the enrollments the limit allows', async () => {
      const t = testApp({ ...appOptions(await kind.location()), limits: { enrollmentsPerApplication: 1 } });
      try {
        const { key } = await application(t);
        const second = await t.call('POST', '/sandbox/enrollments', {
          headers: { authorization: basic(key) },
          json: { username: 'username', password: 'password' },
        });
        assert.equal(second.status, 422);
        assert.equal(second.body.error.code, 'application.enrollment_limit');
      } finally {
        await t.close();
      }
    });

    test('one client address creates at most the applications and enrollments per hour the limits allow', async () => {
      const server = await startServer({
        ...appOptions(await kind.location()),
        port: 0,
        hostname: '127.0.0.1',
        limits: { applicationsPerClient: 1, enrollmentsPerClient: 2 },
      });
      try {
        const call = caller((request) => fetch(request), server.url);
        assert.equal((await call('POST', '/sandbox/applications', { json: {} })).status, 201);
        const tooMany = await call('POST', '/sandbox/applications', { json: {} });
        assert.equal(tooMany.status, 429);
        assert.equal(tooMany.body.error.code, 'rate_limited.applications_per_client');
        assert.equal(tooMany.headers.get('retry-after'), '3600');
        const enroll = () => call('POST', '/sandbox/enrollments', { json: { username: 'username', password: 'password' } });
        assert.equal((await enroll()).status, 201);
        assert.equal((await enroll()).status, 201);
        const third = await enroll();
        assert.equal(third.status, 429);
        assert.equal(third.body.error.code, 'rate_limited.enrollments_per_client');
      } finally {
        await server.close();
      }
    });
  });
}

test('the server listens on 127.0.0.1 unless told otherwise', async () => {
  const server = await startServer({ port: 0 });
  try {
    const address = server.server.address();
    assert.equal(typeof address === 'object' && address?.address, '127.0.0.1');
  } finally {
    await server.close();
  }
});

test('SANDBOX_HOSTED=on gives the hosted defaults; each setting still wins on its own', () => {
  assert.deepEqual(hostedSettingsFromEnv({}), {
    defaultApplication: true,
    webhookTargets: { allowPrivate: true },
    limits: { applicationsPerClient: 0, enrollmentsPerClient: 0, enrollmentsPerApplication: 0 },
  });
  assert.deepEqual(hostedSettingsFromEnv({ SANDBOX_HOSTED: 'on', SANDBOX_ENROLLMENTS_PER_CLIENT: '5' }), {
    defaultApplication: false,
    webhookTargets: { allowPrivate: false },
    limits: { applicationsPerClient: 10, enrollmentsPerClient: 5, enrollmentsPerApplication: 1000 },
  });
  assert.equal(hostedSettingsFromEnv({ SANDBOX_HOSTED: 'on', SANDBOX_DEFAULT_APPLICATION: 'on' }).defaultApplication, true);
  assert.throws(() => hostedSettingsFromEnv({ SANDBOX_HOSTED: 'yes' }), /on or off/);
  assert.throws(() => hostedSettingsFromEnv({ SANDBOX_ENROLLMENTS_PER_CLIENT: '-1' }), /whole number/);
});
