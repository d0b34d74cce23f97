// Payment schemes, payees, payments with MFA and idempotency, in both versions.
import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { createEnrollment } from '../src/domain/enrollments.ts';
import { openStore, startServer } from '../src/index.ts';
import type { Repos, Store } from '../src/storage/store.ts';
import { basic, enrolledSuite, type TestApp, testApp } from './helpers/harness.ts';
import { appOptions, describeUnless, storeKinds } from './helpers/stores.ts';

const VERSIONS = ['2020-10-12', '2019-07-01'] as const;
const payee = { scheme: 'zelle', address: 'jane.doe@example.com', name: 'Jane Doe', type: 'person' };

describe('payments', () => {
  let t: TestApp;
  let token: string;
  let checking: any;
  let savings: any;
  let card: any;

  beforeAll(async () => {
    t = testApp();
    const created = await t.enroll();
    token = created.token;
    [checking, savings, card] = created.accounts;
  });
  afterAll(() => t.close());

  for (const version of VERSIONS) {
    test(`${version}: OPTIONS lists the schemes`, async () => {
      const reply = await t.call('OPTIONS', `/accounts/${checking.id}/payments`, { token, version });
      assert.equal(reply.status, 200);
      assert.deepEqual(reply.body, version === '2019-07-01' ? { schemes: [{ scheme: 'zelle' }] } : { schemes: [{ name: 'zelle' }] });
    });

    test(`${version}: accounts without the payments link refuse with 422 payments.not_supported`, async () => {
      for (const account of [savings, card]) {
        for (const [method, path, json] of [
          ['OPTIONS', '/payments', undefined],
          ['GET', '/payments', undefined],
          ['GET', '/payments/pay_x', undefined],
          ['POST', '/payments', { amount: '5.00', memo: 'x', payee }],
          ['POST', '/payees', payee],
        ] as const) {
          const reply = await t.call(method, `/accounts/${account.id}${path}`, { token, version, ...(json ? { json } : {}) });
          assert.equal(reply.status, 422, `${method} ${path}`);
          assert.equal(reply.body.error.code, 'payments.not_supported');
        }
      }
    });

    test(`${version}: create a payee; MFA challenge for name mfa`, async () => {
      const reply = await t.call('POST', `/accounts/${checking.id}/payees`, { token, version, json: payee });
      assert.equal(reply.status, 200);
      assert.deepEqual(reply.body, { ...payee, account_id: checking.id, links: { account: checking.links.self } });
      const mfa = await t.call('POST', `/accounts/${checking.id}/payees`, { token, version, json: { ...payee, name: 'mfa' } });
      assert.equal(mfa.status, 200);
      assert.deepEqual(Object.keys(mfa.body), ['connect_token']);
    });
  }

  test('payee bodies are validated: 422 with params per field, form-encoded accepted', async () => {
    const bad = await t.call('POST', `/accounts/${checking.id}/payees`, { token, json: { scheme: 'venmo', address: '', type: 'robot', extra: 1 } });
    assert.equal(bad.status, 422);
    assert.deepEqual(Object.keys(bad.body.error.params).sort(), ['address', 'extra', 'name', 'scheme', 'type']);
    const address = await t.call('POST', `/accounts/${checking.id}/payees`, { token, json: { ...payee, address: 'not an address' } });
    assert.equal(address.status, 422);
    assert.ok(address.body.error.params.address);
    const form = await t.call('POST', `/accounts/${checking.id}/payees`, {
      token,
      form: 'scheme=zelle&address=%2B1%20(415)%20555-0100&name=Bob%27s%20Shop&type=business',
    });
    assert.equal(form.status, 200);
    assert.equal(form.body.address, '+14155550100');
    assert.equal(form.body.type, 'business');
  });

  for (const version of VERSIONS) {
    test(`${version}: a payment debits ledger and available at once and posts a transaction`, async () => {
      const before = (await t.call('GET', `/accounts/${checking.id}/balances`, { token })).body;
      const reply = await t.call('POST', `/accounts/${checking.id}/payments`, { token, version, json: { amount: '25', memo: 'Dinner split', payee } });
      assert.equal(reply.status, 202);
      assert.match(reply.body.id, /^pay_/);
      assert.equal(reply.body.amount, '25.00');
      assert.deepEqual(reply.body.payee, { scheme: 'zelle', type: 'person', name: 'Jane Doe', address: 'jane.doe@example.com' });
      const afterBalances = (await t.call('GET', `/accounts/${checking.id}/balances`, { token })).body;
      assert.equal(Math.round(Number(before.ledger) * 100) - 2500, Math.round(Number(afterBalances.ledger) * 100));
      assert.equal(Math.round(Number(before.available) * 100) - 2500, Math.round(Number(afterBalances.available) * 100));
      const [first] = (await t.call('GET', `/accounts/${checking.id}/transactions?count=1`, { token })).body;
      assert.equal(first.amount, '-25.00');
      assert.equal(first.status, 'posted');
      assert.equal(first.type, 'zelle');
      assert.equal(first.running_balance, afterBalances.ledger);
      assert.match(first.description, new RegExp(reply.body.reference));
      const one = await t.call('GET', `/accounts/${checking.id}/payments/${reply.body.id}`, { token, version });
      assert.deepEqual(one.body, reply.body);
      const list = await t.call('GET', `/accounts/${checking.id}/payments`, { token, version });
      assert.equal(list.body[0].id, reply.body.id);
    });
  }

  test('an existing payee needs only scheme and address; a new one needs name and type', async () => {
    const known = await t.call('POST', `/accounts/${checking.id}/payments`, {
      token,
      json: { amount: '1.5', memo: 'Coffee', payee: { scheme: 'zelle', address: 'JANE.DOE@example.com' } },
    });
    assert.equal(known.status, 202);
    assert.equal(known.body.payee.name, 'Jane Doe');
    assert.equal(known.body.amount, '1.50');
    const unknown = await t.call('POST', `/accounts/${checking.id}/payments`, {
      token,
      json: { amount: '1', memo: 'Coffee', payee: { scheme: 'zelle', address: 'nobody@example.com' } },
    });
    assert.equal(unknown.status, 422);
    assert.deepEqual(Object.keys(unknown.body.error.params).sort(), ['payee.name', 'payee.type']);
  });

  test('payment bodies are validated and nothing is written', async () => {
    const count = (await t.call('GET', `/accounts/${checking.id}/payments`, { token })).body.length;
    for (const json of [
      { amount: '-5', memo: 'x', payee },
      { amount: '5.123', memo: 'x', payee },
      { amount: 5, memo: 'x', payee },
      { amount: '0', memo: 'x', payee },
      { memo: 'x', payee },
      { amount: '5', memo: 'x', payee: { scheme: 'zelle' } },
      { amount: '5', memo: '', payee: { ...payee, type: 'robot' } },
    ]) {
      const reply = await t.call('POST', `/accounts/${checking.id}/payments`, { token, json });
      assert.equal(reply.status, 422, JSON.stringify(json));
      assert.equal(reply.body.error.code, 'unprocessable_entity');
      assert.ok(Object.keys(reply.body.error.params).length > 0);
    }
    const nested = await t.call('POST', `/accounts/${checking.id}/payments`, { token, json: { amount: '5', memo: 'x', payee: { scheme: 'zelle' } } });
    assert.deepEqual(nested.body.error.params, { 'payee.address': ['is required'] });
    assert.equal((await t.call('GET', `/accounts/${checking.id}/payments`, { token })).body.length, count);
  });

  test('form-encoded payments with payee[...] fields', async () => {
    const reply = await t.call('POST', `/accounts/${checking.id}/payments`, {
      token,
      form: 'amount=12.30&memo=Lunch&payee[scheme]=zelle&payee[address]=%2B14155550100',
    });
    assert.equal(reply.status, 202);
    assert.equal(reply.body.payee.name, "Bob's Shop");
    assert.equal(reply.body.amount, '12.30');
  });

  test('MFA: memo mfa answers the challenge and makes no payment', async () => {
    const count = (await t.call('GET', `/accounts/${checking.id}/payments`, { token })).body.length;
    const reply = await t.call('POST', `/accounts/${checking.id}/payments`, { token, json: { amount: '5', memo: 'mfa', payee } });
    assert.equal(reply.status, 200);
    assert.deepEqual(Object.keys(reply.body), ['connect_token']);
    assert.equal((await t.call('GET', `/accounts/${checking.id}/payments`, { token })).body.length, count);
  });

  test('unknown payment: 404; insufficient funds: 422', async () => {
    const missing = await t.call('GET', `/accounts/${checking.id}/payments/pay_missing`, { token });
    assert.equal(missing.status, 404);
    const huge = await t.call('POST', `/accounts/${checking.id}/payments`, { token, json: { amount: '99999999', memo: 'x', payee } });
    assert.equal(huge.status, 422);
    assert.equal(huge.body.error.code, 'payments.insufficient_funds');
  });

  test('payments need a connected enrollment', async () => {
    const other = await t.enroll();
    await t.call('POST', '/sandbox/enrollment/disconnect', { token: other.token, json: {} });
    const reply = await t.call('POST', `/accounts/${other.accounts[0].id}/payments`, { token: other.token, json: { amount: '5', memo: 'x', payee } });
    assert.equal(reply.status, 404);
    assert.equal(reply.body.error.code, 'enrollment.disconnected');
    // Past payments stay readable.
    assert.equal((await t.call('GET', `/accounts/${other.accounts[0].id}/payments`, { token: other.token })).status, 200);
  });
});

// On each store: with PostgreSQL the key's uniqueness and the enrollment's row lock do the work.
for (const kind of await storeKinds()) {
  describeUnless(kind.skip, `idempotency (${kind.name})`, () => {
    let t: TestApp;
    let token: string;
    let checking: any;

    beforeAll(async () => {
      t = testApp(appOptions(await kind.location()));
      const created = await t.enroll();
      token = created.token;
      checking = created.accounts[0];
    });
    afterAll(() => t.close());

    const pay = (key: string, json: unknown, extra: Record<string, string> = {}) =>
      t.call('POST', `/accounts/${checking.id}/payments`, { token, json, headers: { 'idempotency-key': key, ...extra } });
    const countPayments = async () => (await t.call('GET', `/accounts/${checking.id}/payments`, { token })).body.length;

    test('same key and body: the stored response again, no second payment', async () => {
      const body = { amount: '10.00', memo: 'Rent share', payee };
      const first = await pay('key-1', body);
      const second = await pay('key-1', body);
      assert.equal(first.status, 202);
      assert.equal(second.status, 202);
      assert.deepEqual(second.body, first.body);
      assert.equal(first.headers.get('idempotent-replayed'), null, 'the request that made the payment is no replay');
      assert.equal(second.headers.get('idempotent-replayed'), 'true');
      assert.equal(await countPayments(), 1);
      // In another version the same payment comes back in that version's shape.
      const old = await pay('key-1', body, { 'service-version': '2019-07-01' });
      assert.equal(old.body.id, first.body.id);
    });

    test('same key, different body: 422 idempotency_key_reused', async () => {
      const reply = await pay('key-1', { amount: '11.00', memo: 'Rent share', payee });
      assert.equal(reply.status, 422);
      assert.equal(reply.body.error.code, 'idempotency_key_reused');
      assert.equal(await countPayments(), 1);
    });

    test('an MFA challenge is kept under its key (the same body answers it again, another body is refused); errors are not', async () => {
      const body = { amount: '3', memo: 'mfa', payee };
      const mfa = await pay('key-2', body);
      assert.equal(mfa.status, 200);
      assert.equal(mfa.headers.get('idempotent-replayed'), null);
      const again = await pay('key-2', body);
      assert.deepEqual([again.status, again.body, again.headers.get('idempotent-replayed')], [200, mfa.body, 'true']);
      const other = await pay('key-2', { amount: '3', memo: 'After MFA', payee });
      assert.deepEqual([other.status, other.body.error.code], [422, 'idempotency_key_reused']);
      const refused = await pay('key-2-error', { amount: '99999999', memo: 'Too much', payee });
      assert.equal(refused.body.error.code, 'payments.insufficient_funds');
      assert.equal((await pay('key-2-error', { amount: '3', memo: 'Enough', payee })).status, 202);
    });

    test('a key is kept 72 hours by the enrollment clock', async () => {
      const body = { amount: '2', memo: 'Snacks', payee };
      const first = await pay('key-3', body);
      await t.call('POST', '/sandbox/clock/advance', { token, json: { days: 2, seconds: 86_000 } });
      assert.equal((await pay('key-3', body)).body.id, first.body.id);
      await t.call('POST', '/sandbox/clock/advance', { token, json: { seconds: 500 } });
      const later = await pay('key-3', body);
      assert.equal(later.status, 202);
      assert.notEqual(later.body.id, first.body.id);
    });

    test('keys are scoped to the token', async () => {
      const other = await t.enroll();
      const reply = await t.call('POST', `/accounts/${other.accounts[0].id}/payments`, {
        token: other.token,
        json: { amount: '10.00', memo: 'Rent share', payee },
        headers: { 'idempotency-key': 'key-1' },
      });
      assert.equal(reply.status, 202);
    });

    test('many concurrent requests with one key make exactly one payment', async () => {
      const before = await countPayments();
      const body = { amount: '7.77', memo: 'Concurrent', payee };
      const replies = await Promise.all(Array.from({ length: 50 }, () => pay('key-concurrent', body)));
      assert.ok(replies.every((reply) => reply.status === 202));
      assert.equal(new Set(replies.map((reply) => reply.body.id)).size, 1);
      assert.equal((await countPayments()) - before, 1);
      const transactions = (await t.call('GET', `/accounts/${checking.id}/transactions?count=20`, { token })).body;
      assert.equal(transactions.filter((txn: any) => txn.amount === '-7.77').length, 1);
    });

    test('an over-long key is a 422', async () => {
      const reply = await pay('k'.repeat(256), { amount: '1', memo: 'x', payee });
      assert.equal(reply.status, 422);
      assert.ok(reply.body.error.params['Idempotency-Key']);
    });

    // Payees keep their keys as payments do, in an enrollment of their own.
    describe('payees', () => {
      let payer: { token: string; account: string };
      beforeAll(async () => {
        const created = await t.enroll();
        payer = { token: created.token, account: created.accounts[0].id };
      });

      const addPayee = (key: string | undefined, json: unknown, extra: Record<string, string> = {}) =>
        t.call('POST', `/accounts/${payer.account}/payees`, {
          token: payer.token,
          json,
          headers: { ...(key === undefined ? {} : { 'idempotency-key': key }), ...extra },
        });
      /** The name the account knows the payee by: a payment to its address alone uses it. */
      const storedName = async (address: string) => {
        const reply = await t.call('POST', `/accounts/${payer.account}/payments`, {
          token: payer.token,
          json: { amount: '0.01', memo: 'Which name', payee: { scheme: 'zelle', address } },
        });
        assert.equal(reply.status, 202, reply.text);
        return reply.body.payee.name as string;
      };

      test('same key and body: the stored response again, nothing created twice', async () => {
        const body = { ...payee, address: 'replayed@example.com' };
        const first = await addPayee('payee-1', body);
        assert.equal(first.status, 200);
        assert.equal(first.headers.get('idempotent-replayed'), null, 'the request that created the payee is no replay');
        // Renamed since by a request without a key: a replay must not write the first body again.
        assert.equal((await addPayee(undefined, { ...body, name: 'Renamed' })).status, 200);
        const second = await addPayee('payee-1', body);
        assert.equal(second.status, 200);
        assert.equal(second.headers.get('idempotent-replayed'), 'true');
        assert.deepEqual(second.body, first.body);
        const old = await addPayee('payee-1', body, { 'service-version': '2019-07-01' });
        assert.equal(old.headers.get('idempotent-replayed'), 'true');
        assert.deepEqual(old.body, first.body);
        assert.equal(await storedName(body.address), 'Renamed');
      });

      test('same key, different body: 422 idempotency_key_reused, and nothing written', async () => {
        const reply = await addPayee('payee-1', { ...payee, address: 'replayed@example.com', name: 'Other' });
        assert.equal(reply.status, 422);
        assert.equal(reply.body.error.code, 'idempotency_key_reused');
        assert.equal(await storedName('replayed@example.com'), 'Renamed');
      });

      test("a payment's key is not a payee's", async () => {
        const paid = await t.call('POST', `/accounts/${payer.account}/payments`, {
          token: payer.token,
          json: { amount: '1', memo: 'Keyed', payee },
          headers: { 'idempotency-key': 'shared-key' },
        });
        assert.equal(paid.status, 202);
        const reply = await addPayee('shared-key', payee);
        assert.equal(reply.status, 422);
        assert.equal(reply.body.error.code, 'idempotency_key_reused');
      });

      test('an MFA challenge is kept under the key: the same body answers it again, another body is refused', async () => {
        const body = { ...payee, address: 'after.mfa@example.com', name: 'mfa' };
        const mfa = await addPayee('payee-mfa', body);
        assert.deepEqual(Object.keys(mfa.body), ['connect_token']);
        const again = await addPayee('payee-mfa', body);
        assert.deepEqual([again.body, again.headers.get('idempotent-replayed')], [mfa.body, 'true']);
        const other = await addPayee('payee-mfa', { ...body, name: 'Jane Doe' });
        assert.deepEqual([other.status, other.body.error.code], [422, 'idempotency_key_reused']);
      });

      test('many concurrent requests with one key have one effect; another token has its own keys', async () => {
        const body = { ...payee, address: 'concurrent@example.com' };
        const replies = await Promise.all(Array.from({ length: 50 }, () => addPayee('payee-concurrent', body)));
        assert.ok(replies.every((reply) => reply.status === 200));
        assert.ok(replies.every((reply) => JSON.stringify(reply.body) === JSON.stringify(replies[0]!.body)));
        assert.equal(replies.filter((reply) => reply.headers.get('idempotent-replayed') === null).length, 1, 'exactly one request created it');
        const elsewhere = await t.call('POST', `/accounts/${checking.id}/payees`, {
          token,
          json: body,
          headers: { 'idempotency-key': 'payee-concurrent' },
        });
        assert.equal(elsewhere.status, 200);
        assert.equal(elsewhere.headers.get('idempotent-replayed'), null);
      });
    });
  });

  // A payment's writes go out with the COMMIT (on PostgreSQL in the same round trip): one that fails there must leave
  // nothing behind, and the request answers the contract's error.
  // The last write fails in the database (it refuses a NULL), or before its statement is sent (a value the driver
  // cannot send): either way nothing of the payment may be committed.
  const failures = {
    'in the database': null as never,
    'before it is sent': {
      toPostgres: () => {
        throw new Error('not sendable');
      },
    } as never,
  };
  for (const [where, response] of Object.entries(failures))
    describeUnless(kind.skip, `a payment whose last write fails ${where} (${kind.name})`, () => {
      let t: TestApp;
      let token: string;
      let checking: any;
      let failing = false;

      beforeAll(async () => {
        const store = openStore(await kind.location());
        const transaction = store.transaction.bind(store);
        // While `failing`, the idempotency key's record, a payment's last write, is stored with a response that fails.
        store.transaction = ((fn, options) =>
          transaction((tx, lastWrites) => {
            if (!failing) return fn(tx, lastWrites);
            const idempotency: Repos['idempotency'] = { ...tx.idempotency, insert: (row) => tx.idempotency.insert({ ...row, response }) };
            return fn({ ...tx, idempotency }, lastWrites);
          }, options)) as Store['transaction'];
        t = testApp({ store });
        const created = await t.enroll();
        token = created.token;
        checking = created.accounts[0];
      });
      afterAll(() => t.close());

      const state = async () => ({
        balances: (await t.call('GET', `/accounts/${checking.id}/balances`, { token })).body,
        payments: (await t.call('GET', `/accounts/${checking.id}/payments`, { token })).body,
        transactions: (await t.call('GET', `/accounts/${checking.id}/transactions?count=5`, { token })).body,
      });

      test('answers 500 internal_error and stores no payment, payee or transaction, nor changes the balance', async () => {
        const before = await state();
        const json = {
          amount: '12.34',
          memo: 'Never stored',
          payee: { scheme: 'zelle', address: 'new.payee@example.com', name: 'New Payee', type: 'person' },
        };
        const headers = { 'idempotency-key': 'last-write-fails' };
        failing = true;
        // 500 is in the catalogue of error codes (nothing was changed), not among each operation's answers.
        const failed = await t.call('POST', `/accounts/${checking.id}/payments`, { token, json, headers, unchecked: true });
        failing = false;
        assert.equal(failed.status, 500, failed.text);
        assert.equal(failed.body.error.code, 'internal_error');
        assert.deepEqual(await state(), before);
        // The payee was not stored either: without its name and type, it is still unknown.
        const unknownPayee = await t.call('POST', `/accounts/${checking.id}/payments`, {
          token,
          json: { amount: '1.00', memo: 'x', payee: { scheme: 'zelle', address: 'new.payee@example.com' } },
        });
        assert.equal(unknownPayee.status, 422);
        assert.ok(unknownPayee.body.error.params['payee.name']);
        // Nor the key: the same request now makes the payment, once.
        const made = await t.call('POST', `/accounts/${checking.id}/payments`, { token, json, headers });
        assert.equal(made.status, 202, made.text);
        assert.equal(made.headers.get('idempotent-replayed'), null);
        const after = await state();
        assert.equal(after.payments.length, before.payments.length + 1);
        assert.equal(Math.round(Number(after.balances.available) * 100), Math.round(Number(before.balances.available) * 100) - 1234);
      });
    });
}

describe('payment limits and long lists', () => {
  const suite = enrolledSuite();

  for (const version of VERSIONS) {
    test(`${version}: memo, payee name and address longer than the description allows answer 422 naming the field`, async () => {
      const { t, token, checking } = suite;
      const cases: [string, unknown, string][] = [
        ['/payments', { amount: '1', memo: 'm'.repeat(251), payee }, 'memo'],
        ['/payments', { amount: '1', memo: 'ok', payee: { ...payee, address: 'new@example.com', name: 'n'.repeat(101) } }, 'payee.name'],
        ['/payments', { amount: '1', memo: 'ok', payee: { ...payee, address: `${'a'.repeat(250)}@example.com` } }, 'payee.address'],
        ['/payees', { ...payee, name: 'n'.repeat(101) }, 'name'],
        ['/payees', { ...payee, address: `${'a'.repeat(250)}@example.com` }, 'address'],
      ];
      for (const [path, json, field] of cases) {
        const reply = await t.call('POST', `/accounts/${checking.id}${path}`, { token, version, json });
        assert.equal(reply.status, 422, `${path} ${field}: ${reply.text}`);
        assert.ok(reply.body.error.params[field], `${path} ${field}: ${reply.text}`);
      }
      const longest = await t.call('POST', `/accounts/${checking.id}/payments`, {
        token,
        version,
        json: { amount: '1', memo: 'm'.repeat(250), payee },
      });
      assert.equal(longest.status, 202, longest.text);
    });
  }

  test('a long payment list is streamed in keyset pages: every payment once, newest first', async () => {
    const running = await startServer({ port: 0, hostname: '127.0.0.1', webhooks: { autostart: false } });
    try {
      const { token, accounts } = await createEnrollment(running.app.runtime.deps, { username: 'username', password: 'password' });
      const account = accounts[0]!;
      const stored = 1_234;
      // Written straight to the store: payments four at a time share a created_at, so pages must break ties by id.
      await running.app.store.transaction(async (tx) => {
        for (let i = 0; i < stored; i++) {
          await tx.payments.insert({
            id: `pay_bulk${String(i).padStart(5, '0')}`,
            account_id: account.id,
            amount: '1.00',
            amount_cents: 100,
            memo: `bulk ${i}`,
            reference: `REF${i}`,
            date: '2026-01-01',
            payee_scheme: 'zelle',
            payee_type: 'person',
            payee_name: 'Jane Doe',
            payee_address: 'jane.doe@example.com',
            transaction_id: `txn_bulk${i}`,
            created_at: 1_700_000_000_000 + Math.floor(i / 4),
          });
        }
      });
      const response = await fetch(`${running.url}/accounts/${account.id}/payments`, { headers: { authorization: basic(token) } });
      assert.equal(response.status, 200);
      assert.equal(response.headers.get('content-length'), null, 'streamed, not rendered whole');
      const list = (await response.json()) as { id: string }[];
      const ids = list.map((payment) => payment.id);
      assert.equal(ids.length, stored);
      assert.equal(new Set(ids).size, stored);
      assert.deepEqual(ids, [...ids].sort().reverse());
    } finally {
      await running.close();
    }
  });
});
