// No server-side request forgery through webhooks: URLs naming link-local and metadata addresses
// (in every spelling) are refused when set, and each delivery checks the addresses its host name
// resolves to, connecting only to the address it checked. Host names resolve through a stub here:
// nothing is ever sent beyond loopback.
import assert from 'node:assert/strict';
import type { LookupAddress } from 'node:dns';
import type { LookupFunction } from 'node:net';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { refusedAddress, refusedUrl } from '../src/webhooks/targets.ts';
import { eventually, type Receiver, receiver, type TestApp, testApp } from './helpers/harness.ts';

const local = { allowPrivate: true };
const hosted = { allowPrivate: false };

describe('webhook URLs', () => {
  const alwaysRefused = [
    'http://169.254.169.254/latest/meta-data/',
    'http://169.254.169.254./latest/meta-data/',
    'http://[fe80::1]/',
    'http://[fd00:ec2::254]/',
    'http://100.100.100.200/latest/meta-data/',
    'http://168.63.129.16/',
    'http://metadata.google.internal/computeMetadata/v1/',
    'http://METADATA.GOOGLE.INTERNAL./',
    'http://instance-data/',
    'http://[::ffff:169.254.169.254]/',
    'http://[::ffff:a9fe:a9fe]/',
    'http://2852039166/', // 169.254.169.254 as one decimal number
    'http://0xa9.0xfe.0xa9.0xfe/', // in hex
    'http://0251.0376.0251.0376/', // in octal
    'http://0xa9fea9fe/',
    'http://169.254.43518/', // two-part form
    'http://0.0.0.0/',
    'http://[::]/',
    'http://224.0.0.1/',
    'http://255.255.255.255/',
    'http://[64:ff9b::a9fe:a9fe]/', // NAT64 of 169.254.169.254
    'http://user:pass@example.com/',
    'ftp://example.com/',
  ];
  for (const url of alwaysRefused) {
    test(`refused everywhere: ${url}`, () => {
      assert.ok(refusedUrl(url, local), `${url} was allowed`);
      assert.ok(refusedUrl(url, hosted));
    });
  }

  const privateOnes = [
    'http://127.0.0.1:4000/webhooks',
    'http://2130706433:4000/', // 127.0.0.1 in decimal
    'http://0x7f.1/',
    'http://[::1]:4000/',
    'http://[::ffff:127.0.0.1]/',
    'http://localhost:4000/',
    'http://hooks.localhost/',
    'http://10.0.0.5/',
    'http://172.16.3.4/',
    'http://192.168.1.10/',
    'http://[fc00::1]/',
    'http://100.64.0.1/',
  ];
  for (const url of privateOnes) {
    test(`allowed locally, refused when hosted: ${url}`, () => {
      assert.equal(refusedUrl(url, local), undefined);
      assert.ok(refusedUrl(url, hosted), `${url} was allowed on a hosted sandbox`);
    });
  }

  for (const url of ['https://app.example.org/webhooks', 'http://8.8.8.8/', 'http://[2001:4860:4860::8888]/']) {
    test(`allowed everywhere: ${url}`, () => {
      assert.equal(refusedUrl(url, local), undefined);
      assert.equal(refusedUrl(url, hosted), undefined);
    });
  }

  test('addresses as a resolver returns them', () => {
    assert.match(refusedAddress('169.254.169.254', local)!, /linkLocal/);
    assert.match(refusedAddress('::ffff:169.254.169.254', local)!, /169\.254\.169\.254/);
    assert.match(refusedAddress('fd00:ec2::254', local)!, /metadata/);
    assert.equal(refusedAddress('127.0.0.1', local), undefined);
    assert.match(refusedAddress('127.0.0.1', hosted)!, /loopback/);
  });
});

/** A resolver that knows only these names, so that no test depends on (or sends to) real DNS. */
function stubResolver(names: Record<string, string>, asked: string[]): LookupFunction {
  return ((hostname: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) => {
    asked.push(hostname);
    const address = names[hostname];
    if (!address) return callback(Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' }));
    const entry: LookupAddress = { address, family: address.includes(':') ? 6 : 4 };
    if (options.all) callback(null, [entry]);
    else callback(null, entry.address, entry.family);
  }) as unknown as LookupFunction;
}

for (const [name, policy] of [
  ['local', local],
  ['hosted', hosted],
] as const) {
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

    test('setting a refused URL answers 422 webhook_url.refused and changes nothing', async () => {
      const before = (await t.call('GET', '/sandbox/webhook', { token })).body.url;
      const refused = ['http://169.254.169.254/', 'http://[::ffff:a9fe:a9fe]/', 'http://metadata.google.internal/'];
      if (name === 'hosted') refused.push('http://127.0.0.1:4000/', 'http://localhost:4000/', 'http://10.1.2.3/');
      for (const url of refused) {
        const reply = await t.call('PUT', '/sandbox/webhook', { token, json: { url } });
        assert.equal(reply.status, 422, url);
        assert.equal(reply.body.error.code, 'webhook_url.refused');
        assert.ok(reply.body.error.params.url[0]);
      }
      assert.equal((await t.call('GET', '/sandbox/webhook', { token })).body.url, before);
    });
  });
}
