// MFA challenges completed: a payee or payment that needs the user's approval answers a connect_token, which the
// control API shows and approves; the same request with the same Idempotency-Key and body then takes effect once.
// Expiry runs on the enrollment's sandbox clock. On both stores.
import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { CONNECT_TOKEN_LIFETIME_MS } from '../src/domain/connect-tokens.ts';
import type { Repos, Store } from '../src/storage/store.ts';
import { type TestApp, testApp } from './helpers/harness.ts';
import { appOptions, describeUnless, storeKinds } from './helpers/stores.ts';

const payee = { scheme: 'zelle', address: 'jane.doe@example.com', name: 'Jane Doe', type: 'person' };
const payment = { amount: '25.00', memo: 'Dinner split', payee };

for (const kind of await storeKinds()) {
  describeUnless(kind.skip, `MFA challenges (${kind.name})`, () => {
    let t: TestApp;
    let token: string;
    let checking: { id: string };

    beforeAll(async () => {
      t = testApp(appOptions(await kind.location()));
      const enrolled = await t.enroll('mfa.payments');
      token = enrolled.token;
      checking = enrolled.accounts[0];
    });
    afterAll(() => t.close());

    const pay = (key: string | undefined, json: unknown = payment, as = token) =>
      t.call('POST', `/accounts/${checking.id}/payments`, { token: as, json, ...(key ? { headers: { 'idempotency-key': key } } : {}) });
    const addPayee = (key: string, json: unknown) =>
      t.call('POST', `/accounts/${checking.id}/payees`, { token, json, headers: { 'idempotency-key': key } });
    const challenge = (connectToken: string, as = token) => t.call('GET', `/sandbox/connect_tokens/${connectToken}`, { token: as });
    const approve = (connectToken: string, as = token) => t.call('POST', `/sandbox/connect_tokens/${connectToken}/approve`, { token: as });
    const payments = async () => (await t.call('GET', `/accounts/${checking.id}/payments`, { token })).body as { id: string; memo: string }[];
    const advance = (seconds: number) => t.call('POST', '/sandbox/clock/advance', { token, json: { seconds } });

    test('mfa.payments: a payment waits for approval, then the same request with the same key pays once', async () => {
      const before = (await payments()).length;
      const first = await pay('mfa-1');
      assert.equal(first.status, 200);
      const connectToken = first.body.connect_token as string;
      const shown = await challenge(connectToken);
      assert.equal(shown.status, 200);
      assert.equal(shown.body.status, 'pending');
      assert.equal(shown.body.operation, 'create_payment');
      assert.equal(shown.body.account_id, checking.id);
      assert.equal(shown.body.idempotency_key, 'mfa-1');
      assert.deepEqual(shown.body.request, payment);
      assert.equal(Date.parse(shown.body.expires_at) - Date.parse(shown.body.issued_at), CONNECT_TOKEN_LIFETIME_MS);

      // Until approved, the same request answers the same challenge and pays nothing.
      const again = await pay('mfa-1');
      assert.deepEqual([again.status, again.body, again.headers.get('idempotent-replayed')], [200, first.body, 'true']);
      assert.equal((await payments()).length, before);

      const approved = await approve(connectToken);
      assert.equal(approved.status, 200);
      assert.equal(approved.body.status, 'approved');
      assert.ok(approved.body.approved_at);
      // Approving again changes nothing.
      assert.deepEqual((await approve(connectToken)).body, approved.body);

      const paid = await pay('mfa-1');
      assert.equal(paid.status, 202);
      assert.match(paid.body.id, /^pay_/);
      assert.equal(paid.headers.get('idempotent-replayed'), null);
      const replayed = await pay('mfa-1');
      assert.deepEqual([replayed.status, replayed.body, replayed.headers.get('idempotent-replayed')], [202, paid.body, 'true']);
      const after = await payments();
      assert.equal(after.length, before + 1);
      assert.equal(after[0]!.id, paid.body.id);

      const completed = (await challenge(connectToken)).body;
      assert.equal(completed.status, 'completed');
      assert.ok(completed.completed_at);
      const late = await approve(connectToken);
      assert.deepEqual([late.status, late.body.error.code], [422, 'connect_token.completed']);
    });

    test('mfa.payments: a payee waits for approval too, and is created once', async () => {
      const body = { ...payee, address: 'approved.payee@example.com', name: 'Approved Payee' };
      const first = await addPayee('payee-mfa-1', body);
      assert.deepEqual(Object.keys(first.body), ['connect_token']);
      assert.equal((await challenge(first.body.connect_token)).body.operation, 'create_payee');
      assert.equal((await approve(first.body.connect_token)).status, 200);
      const created = await addPayee('payee-mfa-1', body);
      assert.deepEqual([created.status, created.body.address, created.body.name], [200, body.address, body.name]);
      assert.equal((await addPayee('payee-mfa-1', body)).headers.get('idempotent-replayed'), 'true');
      // Another body under the key is refused, as for any key.
      assert.equal((await addPayee('payee-mfa-1', { ...body, name: 'Someone Else' })).body.error.code, 'idempotency_key_reused');
    });

    test('a challenge expires by the sandbox clock: approving it is refused, and the request gets a new challenge', async () => {
      const first = await pay('mfa-expiry');
      const old = first.body.connect_token as string;
      await advance(CONNECT_TOKEN_LIFETIME_MS / 1000 - 60);
      assert.equal((await challenge(old)).body.status, 'pending');
      await advance(60);
      assert.equal((await challenge(old)).body.status, 'expired');
      const refused = await approve(old);
      assert.deepEqual([refused.status, refused.body.error.code], [422, 'connect_token.expired']);
      assert.equal((await challenge(old)).body.status, 'expired', 'the refusal changed nothing');

      const renewed = await pay('mfa-expiry');
      assert.equal(renewed.status, 200);
      assert.notEqual(renewed.body.connect_token, old);
      assert.equal(renewed.headers.get('idempotent-replayed'), null);
      assert.equal((await challenge(renewed.body.connect_token)).body.status, 'pending');
      await approve(renewed.body.connect_token);
      assert.equal((await pay('mfa-expiry')).status, 202);
    });

    test('an approved challenge whose request is not sent again within its lifetime expires too', async () => {
      const first = await pay('mfa-approved-late');
      await approve(first.body.connect_token);
      await advance(CONNECT_TOKEN_LIFETIME_MS / 1000);
      assert.equal((await challenge(first.body.connect_token)).body.status, 'expired');
      const count = (await payments()).length;
      const renewed = await pay('mfa-approved-late');
      assert.equal(renewed.status, 200);
      assert.notEqual(renewed.body.connect_token, first.body.connect_token);
      assert.equal((await payments()).length, count);
    });

    test('without an Idempotency-Key a challenge cannot be completed: the request again is a new challenge', async () => {
      const count = (await payments()).length;
      const first = await pay(undefined);
      assert.equal((await challenge(first.body.connect_token)).body.idempotency_key, null);
      assert.equal((await approve(first.body.connect_token)).status, 200);
      const again = await pay(undefined);
      assert.equal(again.status, 200);
      assert.notEqual(again.body.connect_token, first.body.connect_token);
      assert.equal((await payments()).length, count);
    });

    test('many concurrent retries of an approved request make one payment', async () => {
      const body = { ...payment, memo: 'Concurrent approval' };
      const first = await pay('mfa-concurrent', body);
      await approve(first.body.connect_token);
      const replies = await Promise.all(Array.from({ length: 20 }, () => pay('mfa-concurrent', body)));
      assert.ok(replies.every((reply) => reply.status === 202));
      assert.equal(new Set(replies.map((reply) => reply.body.id)).size, 1);
      assert.equal(replies.filter((reply) => reply.headers.get('idempotent-replayed') === null).length, 1);
      assert.equal((await payments()).filter((row) => row.memo === body.memo).length, 1);
    });

    test('the magic memo `mfa` of any user challenges, and completes once approved', async () => {
      const plain = await t.enroll();
      const body = { ...payment, memo: 'mfa' };
      const url = `/accounts/${plain.accounts[0].id}/payments`;
      const send = () => t.call('POST', url, { token: plain.token, json: body, headers: { 'idempotency-key': 'magic' } });
      const first = await send();
      assert.equal(first.status, 200);
      await approve(first.body.connect_token, plain.token);
      const paid = await send();
      assert.deepEqual([paid.status, paid.body.memo], [202, 'mfa']);
      // Without MFA, payments of this user do not wait.
      assert.equal((await t.call('POST', url, { token: plain.token, json: payment })).status, 202);
    });

    test("another application's token never sees nor approves a challenge", async () => {
      const first = await pay('mfa-isolation');
      const created = await t.call('POST', '/sandbox/applications', { json: {} });
      const otherEnrollment = await t.call('POST', '/sandbox/enrollments', {
        token: created.body.key,
        json: { username: 'username', password: 'password' },
      });
      const other = otherEnrollment.body.access_token as string;
      for (const reply of [await challenge(first.body.connect_token, other), await approve(first.body.connect_token, other)]) {
        assert.deepEqual([reply.status, reply.body.error.code], [404, 'connect_token.not_found']);
      }
      assert.equal((await challenge(first.body.connect_token)).body.status, 'pending');
      const unknown = await approve('not-a-token');
      assert.deepEqual([unknown.status, unknown.body.error.code], [404, 'connect_token.not_found']);
    });
  });
}

/** A store whose transactions report which repository methods they call. */
function watched(store: Store, calls: string[]): Store {
  const watch = (repos: Repos): Repos =>
    new Proxy(repos, {
      get: (target, name: string) =>
        new Proxy(target[name as keyof Repos] as object, {
          get: (repo, method: string) => {
            const fn = (repo as Record<string, unknown>)[method];
            if (typeof fn !== 'function') return fn;
            return (...args: unknown[]) => {
              calls.push(`${name}.${method}`);
              return (fn as (...a: unknown[]) => unknown).apply(repo, args);
            };
          },
        }),
    });
  return new Proxy(store, {
    get: (target, name: string) => {
      const value = (target as unknown as Record<string, unknown>)[name];
      if (name !== 'transaction') return typeof value === 'function' ? value.bind(target) : value;
      return ((fn, options) => target.transaction((tx, lastWrites) => fn(watch(tx), lastWrites), options)) satisfies Store['transaction'];
    },
  });
}

describe('what a payment costs', () => {
  const calls: string[] = [];
  let t: TestApp;
  let token: string;
  let checking: { id: string };

  beforeAll(async () => {
    const { openStore } = await import('../src/storage/index.ts');
    t = testApp({ store: watched(openStore({ path: ':memory:' }), calls) });
    const enrolled = await t.enroll();
    token = enrolled.token;
    checking = enrolled.accounts[0];
  });
  afterAll(async () => {
    await t.close();
    await t.app.store.close();
  });

  const pay = (key: string, memo: string) =>
    t.call('POST', `/accounts/${checking.id}/payments`, { token, json: { ...payment, memo }, headers: { 'idempotency-key': key } });
  const during = async (send: () => Promise<unknown>): Promise<string[]> => {
    calls.length = 0;
    await send();
    return [...calls];
  };

  test('a payment without MFA, and its replay, read and write what they did before challenges existed', async () => {
    const made = await during(() => pay('plain', 'Plain'));
    assert.deepEqual(made.sort(), [
      'accounts.get',
      'accounts.update',
      'enrollments.getForUpdate',
      'idempotency.get',
      'idempotency.insert',
      'payees.get',
      'payees.upsert',
      'payments.insert',
      'transactions.insertMany',
      'transactions.listPending',
      'transactions.maxSeq',
    ]);
    const replayed = await during(() => pay('plain', 'Plain'));
    assert.deepEqual(replayed.sort(), [
      'accounts.get',
      'enrollments.getForUpdate',
      'idempotency.get',
      'payees.get',
      'transactions.listPending',
      'transactions.maxSeq',
    ]);
  });

  test("only a key that keeps a challenge reads the challenge's state", async () => {
    const issued = await during(() => pay('challenged', 'mfa'));
    assert.ok(issued.includes('connectTokens.insert') && !issued.includes('connectTokens.get'), issued.join());
    const retried = await during(() => pay('challenged', 'mfa'));
    assert.deepEqual(
      retried.filter((call) => call.startsWith('connectTokens.')),
      ['connectTokens.get'],
    );
  });
});
