// Hostile request input: keys named like Object.prototype members, NUL bytes and lone surrogates.
// Each answers 4xx in the error shape, changes nothing and leaves the server serving everyone.
import assert from 'node:assert/strict';
import { describe, test } from 'vitest';
import { enrolledSuite } from './helpers/harness.ts';
import { appOptions, describeUnless, storeKinds } from './helpers/stores.ts';

const payee = { scheme: 'zelle', address: 'jane.doe@example.com', name: 'Jane Doe', type: 'person' };
const payment = { amount: '5.00', memo: 'rent', payee };
const PROTOTYPE_NAMES = ['__proto__', 'constructor', 'prototype', 'toString', 'valueOf', 'hasOwnProperty'];
const prototypeNames = Object.getOwnPropertyNames(Object.prototype);

describe('keys named like Object.prototype members', () => {
  const suite = enrolledSuite();

  test('a form body walking __proto__ is refused and pollutes nothing; later writes still work', async () => {
    const { t, token, checking } = suite;
    for (const form of [
      '__proto__[polluted]=yes',
      'username=username&password=password&__proto__[polluted]=yes',
      'constructor[prototype][polluted]=yes',
      'a[__proto__][polluted]=yes',
    ]) {
      const reply = await t.call('POST', '/sandbox/enrollments', { form });
      assert.ok(reply.status === 422 || reply.status === 400, `${form}: ${reply.status} ${reply.text}`);
      assert.equal(typeof reply.body.error.code, 'string');
      assert.equal(({} as Record<string, unknown>).polluted, undefined, `${form} polluted Object.prototype`);
    }
    const after = await t.call('POST', `/accounts/${checking.id}/payees`, { token, json: payee });
    assert.equal(after.status, 200, after.text);
  });

  for (const name of PROTOTYPE_NAMES) {
    test(`an extra "${name}" field answers 422 with params, in JSON and form bodies, on every operation with a body`, async () => {
      const { t, token, checking } = suite;
      const bodies: [string, string, Record<string, unknown>, string | undefined][] = [
        ['POST', `/accounts/${checking.id}/payments`, payment, token],
        ['POST', `/accounts/${checking.id}/payees`, payee, token],
        ['POST', '/sandbox/enrollments', { username: 'username', password: 'password' }, undefined],
        ['POST', '/sandbox/clock/advance', { days: 1 }, token],
        ['POST', '/sandbox/enrollment/disconnect', {}, token],
        ['POST', `/sandbox/accounts/${checking.id}/close`, {}, token],
        ['PUT', '/sandbox/webhook', { url: null }, token],
        ['POST', '/sandbox/webhook/secrets', { expire_current_at: '2030-01-01T00:00:00Z' }, token],
        ['POST', '/sandbox/events', { type: 'webhook.test' }, token],
      ];
      for (const [method, path, body, auth] of bodies) {
        const json = `{${JSON.stringify(name)}:1,${JSON.stringify(body).slice(1)}`.replace(',}', '}');
        const asJson = await t.call(method, path, { ...(auth ? { token: auth } : {}), body: json, headers: { 'content-type': 'application/json' } });
        assert.equal(asJson.status, 422, `${method} ${path} JSON: ${asJson.text}`);
        assert.ok(asJson.body.error.params, `${method} ${path} JSON: ${asJson.text}`);
        const form = `${encodeURIComponent(name)}=1&${new URLSearchParams(body as Record<string, string>)}`;
        const asForm = await t.call(method, path, { ...(auth ? { token: auth } : {}), form });
        assert.equal(asForm.status, 422, `${method} ${path} form: ${asForm.text}`);
      }
      assert.deepEqual(Object.getOwnPropertyNames(Object.prototype), prototypeNames);
    });
  }

  test('a nested __proto__ in a JSON body is refused; the payment is not made', async () => {
    const { t, token, checking } = suite;
    const before = await t.call('GET', `/accounts/${checking.id}/payments`, { token });
    const body = `{"amount":"5.00","memo":"x","payee":{"__proto__":{"polluted":"yes"},"scheme":"zelle","address":"a@example.com","name":"A","type":"person"}}`;
    const reply = await t.call('POST', `/accounts/${checking.id}/payments`, { token, body, headers: { 'content-type': 'application/json' } });
    assert.equal(reply.status, 422, reply.text);
    const afterwards = await t.call('GET', `/accounts/${checking.id}/payments`, { token });
    assert.equal(afterwards.body.length, before.body.length);
  });

  test('query parameters named like prototype members are ignored like any unknown parameter', async () => {
    const { t, token, checking } = suite;
    for (const query of ['__proto__=1', 'constructor=1', '__proto__[polluted]=yes', 'toString=1&count=2']) {
      const reply = await t.call('GET', `/accounts/${checking.id}/transactions?${query}`, { token });
      assert.equal(reply.status, 200, `${query}: ${reply.text}`);
    }
  });
});

for (const kind of await storeKinds()) {
  describeUnless(kind.skip, `text no store can keep (${kind.name})`, () => {
    const suite = enrolledSuite(async () => appOptions(await kind.location()));

    test('a NUL byte in a path id answers 404, in a query id 422', async () => {
      const { t, token, checking } = suite;
      for (const path of [
        '/accounts/acc_%00/payments',
        '/accounts/acc_%00',
        `/accounts/${checking.id}/payments/pay_%00`,
        `/accounts/${checking.id}/transactions/txn_%00`,
      ]) {
        const reply = await t.call('GET', path, { token });
        assert.equal(reply.status, 404, `${path}: ${reply.text}`);
      }
      const reply = await t.call('GET', `/accounts/${checking.id}/transactions?from_id=txn_%00`, { token });
      assert.equal(reply.status, 422, reply.text);
      assert.ok(reply.body.error.params.from_id, reply.text);
    });

    test('a body nested as deep as its size allows answers 422, not a stack overflow', async () => {
      const { t, token, checking } = suite;
      const depth = 200_000;
      const body = `{"amount":"1","memo":${'['.repeat(depth)}${']'.repeat(depth)},"payee":{"scheme":"zelle","address":"a@example.com"}}`;
      const reply = await t.call('POST', `/accounts/${checking.id}/payments`, { token, body, headers: { 'content-type': 'application/json' } });
      assert.equal(reply.status, 422, reply.text.slice(0, 300));
      assert.ok(reply.body.error.params.memo, reply.text.slice(0, 300));
    });

    test('a leap second in a date-time is the instant after :59, on both stores', async () => {
      const { t, token } = suite;
      const reply = await t.call('POST', '/sandbox/webhook/secrets', { token, json: { expire_current_at: '2030-06-30T23:59:60Z' } });
      assert.equal(reply.status, 201, reply.text);
      const expiries = reply.body.secrets.map((secret: { expires_at: string | null }) => secret.expires_at);
      assert.ok(expiries.includes('2030-07-01T00:00:00.000Z'), JSON.stringify(expiries));
    });

    for (const [what, text] of [
      ['a NUL byte', 'x\u0000y'],
      ['a lone high surrogate', 'x\ud800y'],
      ['a lone low surrogate', 'x\udc00'],
    ] as const) {
      test(`${what} in a memo, a payee name or a webhook URL answers 422 naming the field; nothing is stored`, async () => {
        const { t, token, checking } = suite;
        const before = await t.call('GET', `/accounts/${checking.id}/payments`, { token });
        const cases: [string, string, unknown, string][] = [
          ['POST', `/accounts/${checking.id}/payments`, { ...payment, memo: text }, 'memo'],
          ['POST', `/accounts/${checking.id}/payments`, { ...payment, payee: { ...payee, address: 'new@example.com', name: text } }, 'payee.name'],
          ['POST', `/accounts/${checking.id}/payees`, { ...payee, name: text }, 'name'],
          ['PUT', '/sandbox/webhook', { url: `http://example.com/${text}` }, 'url'],
        ];
        for (const [method, path, json, field] of cases) {
          // JSON.stringify writes lone surrogates as \ud800 escapes, as a client would send them.
          const reply = await t.call(method, path, { token, json });
          assert.equal(reply.status, 422, `${method} ${path}: ${reply.text}`);
          assert.ok(reply.body.error.params[field], `${method} ${path}: ${reply.text}`);
        }
        const form = await t.call('POST', `/accounts/${checking.id}/payments`, {
          token,
          form: `amount=5.00&memo=${encodeURIComponent('x\u0000')}&payee[scheme]=zelle&payee[address]=jane.doe%40example.com`,
        });
        assert.equal(form.status, 422, form.text);
        const afterwards = await t.call('GET', `/accounts/${checking.id}/payments`, { token });
        assert.equal(afterwards.body.length, before.body.length);
        assert.equal((await t.call('GET', '/sandbox/webhook', { token })).body.url, null);
      });
    }
  });
}
