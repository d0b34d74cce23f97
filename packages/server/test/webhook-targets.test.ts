// No server-side request forgery through webhooks: URLs naming link-local and metadata addresses
// (in every spelling) are refused when set, and each delivery checks the addresses its host name
// resolves to, connecting only to the address it checked. Host names resolve through a stub here:
// nothing is ever sent beyond loopback.
import assert from 'node:assert/strict';
import type { LookupAddress } from 'node:dns';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { guardedFetch, guardedLookup, RefusedTarget, refusedAddress, refusedUrl } from '../src/webhooks/targets.ts';
import { eventually, type Receiver, receiver, type TestApp, testApp } from './helpers/harness.ts';
import { stubResolver } from './helpers/resolver.ts';
import { resolvedAddress, targetSpellings } from './helpers/target-spellings.ts';

const local = { allowPrivate: true };
const hosted = { allowPrivate: false };
const policies = [
  ['local', local],
  ['hosted', hosted],
] as const;

describe('webhook URLs', () => {
  for (const [name, policy] of policies) {
    test.for(targetSpellings)(`${name}: http://$host/ ($why)`, (spelling) => {
      const refused = refusedUrl(`http://${spelling.host}:4000/webhooks`, policy);
      assert.equal(refused ? 'refused' : 'allowed', spelling[name], refused ?? 'allowed');
    });
  }

  const others = [
    ['http://169.254.169.254./latest/meta-data/', 'refused', 'refused'],
    ['http://metadata.google.internal/computeMetadata/v1/', 'refused', 'refused'],
    ['http://METADATA.GOOGLE.INTERNAL./', 'refused', 'refused'],
    ['http://instance-data/', 'refused', 'refused'],
    ['http://user:pass@example.com/', 'refused', 'refused'],
    ['ftp://example.com/', 'refused', 'refused'],
    ['http://localhost:4000/', 'allowed', 'refused'],
    ['http://hooks.localhost/', 'allowed', 'refused'],
    ['https://app.example.org/webhooks', 'allowed', 'allowed'],
  ] as const;
  for (const [url, onLocal, onHosted] of others) {
    test(`${url}: ${onLocal} locally, ${onHosted} when hosted`, () => {
      assert.equal(refusedUrl(url, local) ? 'refused' : 'allowed', onLocal);
      assert.equal(refusedUrl(url, hosted) ? 'refused' : 'allowed', onHosted);
    });
  }

  test('what the refusals say', () => {
    assert.match(refusedAddress('169.254.169.254', local)!, /linkLocal/);
    assert.match(refusedAddress('::ffff:169.254.169.254', local)!, /169\.254\.169\.254/);
    assert.equal(refusedAddress('::169.254.169.254', local), '::a9fe:a9fe is an ipv4Compatible address');
    assert.equal(refusedAddress('::ffff:0:a9fe:a9fe', local), '::ffff:0:a9fe:a9fe embeds 169.254.169.254, a linkLocal address');
    assert.equal(refusedAddress('64:ff9b:1::a9fe:a9fe', local), '64:ff9b:1::a9fe:a9fe is a localUseNat64 address');
    assert.match(refusedAddress('fd00:ec2::254', local)!, /metadata/);
    assert.equal(refusedAddress('127.0.0.1', local), undefined);
    assert.match(refusedAddress('127.0.0.1', hosted)!, /loopback/);
    assert.equal(refusedAddress('::127.0.0.1', local), '::7f00:1 is an ipv4Compatible address');
    assert.equal(refusedAddress('::ffff:127.0.0.1', hosted), '::ffff:7f00:1 embeds 127.0.0.1, a loopback address, refused on this server');
    assert.equal(refusedAddress('fec0::1', local), 'fec0::1 is a siteLocal address');
  });
});

// Each spelling as a resolver answers it for a host name: what each delivery's own lookup decides.
describe('host names resolving to each spelling, at delivery time', () => {
  let hook: Receiver;
  beforeAll(async () => {
    hook = await receiver(() => []);
  });
  afterAll(() => hook.close());

  for (const [name, policy] of policies) {
    test.for(targetSpellings)(`${name}: a name resolving to $host`, async (spelling) => {
      const address = resolvedAddress(spelling);
      const resolve = stubResolver({ 'hooks.example.test': address });
      const lookup = guardedLookup(policy, resolve);
      const answer = await new Promise<{ error: Error | null; all?: LookupAddress[] }>((done) =>
        lookup('hooks.example.test', { all: true }, (error, all) => done({ error, all: all as unknown as LookupAddress[] })),
      );
      if (spelling[name] === 'allowed') {
        assert.equal(answer.error, null);
        // The address connected to is the one checked.
        assert.deepEqual(
          answer.all?.map((entry) => entry.address),
          [address],
        );
        return;
      }
      assert.ok(answer.error instanceof RefusedTarget, `${address} was allowed`);
      assert.match(answer.error.message, /^refused: hooks\.example\.test resolves to /);
      // The deliveries' fetch refuses it before sending anything (the receiver listens on the port asked).
      const transport = guardedFetch(policy, resolve);
      try {
        const sent = transport.fetch(`http://hooks.example.test:${new URL(hook.url).port}/webhooks`, { method: 'POST', body: '{}' });
        await assert.rejects(sent, (error: Error) => error.cause instanceof RefusedTarget);
      } finally {
        await transport.close();
      }
      assert.equal(hook.events.length + hook.rejected.length, 0);
    });
  }
});

for (const [name, policy] of policies) {
  describe(`webhook deliveries after resolution (${name} sandbox)`, () => {
    let t: TestApp;
    let hook: Receiver;
    let token: string;
    let secrets: string[] = [];
    const asked: string[] = [];

    beforeAll(async () => {
      hook = await receiver(() => secrets);
      t = testApp({
        webhookTargets: policy,
        webhooks: {
          pollMs: 30,
          retry: { baseDelayMs: 10_000, maxDelayMs: 10_000, maxAttempts: 1 },
          lookup: stubResolver({ 'hooks.example.test': '127.0.0.1', 'rebind.example.test': '169.254.169.254' }, asked),
        },
      });
      ({ token } = await t.enroll());
    });
    afterAll(async () => {
      await t.close();
      await hook.close();
    });

    /** Sets the URL behind the app's back (as a URL set before the check would be), fires an event, waits for the attempt. */
    async function deliverTo(url: string) {
      await t.app.store.transaction((tx) => tx.applications.update('app_default', { webhook_url: url }));
      secrets = (await t.call('GET', '/sandbox/webhook', { token })).body.secrets.map((s: { secret: string }) => s.secret);
      const fired = await t.call('POST', '/sandbox/events', { token, json: { type: 'webhook.test' } });
      let delivery: { status: string; last_error: string | null } | undefined;
      await eventually(async () => {
        const log = (await t.call('GET', '/sandbox/webhook/deliveries', { token })).body as { event_id: string; status: string }[];
        const found = log.find((entry) => entry.event_id === fired.body.id);
        if (found?.status === 'pending') return false;
        delivery = (await t.app.store.outbox.listDeliveries('app_default', 100)).find((row) => row.event_id === fired.body.id);
        return delivery !== undefined;
      });
      return { id: fired.body.id as string, delivery: delivery! };
    }

    test('a host name resolving to a metadata address is refused at delivery time, and nothing is sent', async () => {
      const port = new URL(hook.url).port;
      const { id, delivery } = await deliverTo(`http://rebind.example.test:${port}/webhooks`);
      assert.equal(delivery.status, 'failed');
      assert.match(delivery.last_error ?? '', /refused: rebind\.example\.test resolves to 169\.254\.169\.254/);
      assert.ok(asked.includes('rebind.example.test'));
      assert.ok(!hook.events.some((received) => received.event.id === id));
    });

    test('a URL that names a refused address is not attempted even if it got past the setting', async () => {
      const { delivery } = await deliverTo('http://169.254.169.254/latest/meta-data/');
      assert.equal(delivery.status, 'failed');
      assert.match(delivery.last_error ?? '', /refused: 169\.254\.169\.254/);
    });

    test(
      name === 'local'
        ? 'a host name resolving to loopback is delivered to the address the check saw'
        : 'a host name resolving to loopback is refused on a hosted sandbox',
      async () => {
        const port = new URL(hook.url).port;
        const { id, delivery } = await deliverTo(`http://hooks.example.test:${port}/webhooks`);
        if (name === 'local') {
          // hooks.example.test exists only in the stub: the delivery reached the receiver through the checked address.
          assert.equal(delivery.status, 'delivered', delivery.last_error ?? '');
          assert.ok(hook.events.some((received) => received.event.id === id));
        } else {
          assert.equal(delivery.status, 'failed');
          assert.match(delivery.last_error ?? '', /refused: hooks\.example\.test resolves to 127\.0\.0\.1 is a loopback address/);
        }
      },
    );

    test('setting each spelling: 422 webhook_url.refused, changing nothing, when refused; 200 when allowed', async () => {
      let current = (await t.call('GET', '/sandbox/webhook', { token })).body.url;
      for (const spelling of targetSpellings) {
        const url = `http://${spelling.host}:4000/webhooks`;
        const reply = await t.call('PUT', '/sandbox/webhook', { token, json: { url } });
        if (spelling[name] === 'allowed') {
          assert.equal(reply.status, 200, `${url}: ${reply.text}`);
          current = reply.body.url;
          continue;
        }
        assert.equal(reply.status, 422, url);
        assert.equal(reply.body.error.code, 'webhook_url.refused');
        assert.ok(reply.body.error.params.url[0]);
        assert.equal((await t.call('GET', '/sandbox/webhook', { token })).body.url, current, `${url} changed the setting`);
      }
    });
  });
}
