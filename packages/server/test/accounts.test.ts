// Accounts, details, balances, institutions, authentication and versions, in both versions.
import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { type TestApp, testApp } from './helpers/harness.ts';

const VERSIONS = ['2020-10-12', '2019-07-01'] as const;

describe('accounts', () => {
  let t: TestApp;
  let token: string;
  let accounts: any[];
  let checking: any;
  let card: any;

  beforeAll(async () => {
    t = testApp();
    ({ token, accounts } = await t.enroll());
    checking = accounts.find((a) => a.subtype === 'checking');
    card = accounts.find((a) => a.subtype === 'credit_card');
  });
  afterAll(() => t.close());

  test('the sandbox user `username` has checking, savings and a credit card', () => {
    assert.deepEqual(
      accounts.map((a) => [a.type, a.subtype, a.status]),
      [
        ['depository', 'checking', 'open'],
        ['depository', 'savings', 'open'],
        ['credit', 'credit_card', 'open'],
      ],
    );
    for (const account of accounts) {
      assert.match(account.id, /^acc_/);
      assert.match(account.enrollment_id, /^enr_/);
      assert.deepEqual(account.institution, { id: 'chase', name: 'Chase' });
    }
  });

  test('links show capabilities: payments only on checking, details not on cards', () => {
    assert.ok(checking.links.payments);
    assert.equal(card.links.payments, undefined);
    assert.equal(accounts[1].links.payments, undefined);
    for (const account of accounts) assert.ok(account.links.self && account.links.balances && account.links.transactions);
    assert.deepEqual(
      accounts.map((account) => 'details' in account.links),
      [true, true, false],
    );
  });

  for (const version of VERSIONS) {
    test(`${version}: list and get accounts`, async () => {
      const list = await t.call('GET', '/accounts', { token, version });
      assert.equal(list.status, 200);
      assert.equal(list.headers.get('service-version'), version);
      assert.equal(list.body.length, 3);
      const one = await t.call('GET', `/accounts/${checking.id}`, { token, version });
      assert.equal(one.status, 200);
      assert.equal(one.headers.get('service-enrollment-status'), 'healthy');
      assert.equal(one.body.id, checking.id);
      if (version === '2019-07-01') {
        assert.equal(one.body.type, 'bank_account');
        assert.equal(one.body.institution, 'Chase');
        assert.equal(one.body.currency_code, 'USD');
        assert.equal(one.body.country_code, 'US');
        assert.match(one.body.account_number, /^\d+$/);
        assert.deepEqual(
          one.body.routing_numbers.map((r: any) => r.type),
          ['ach', 'wire'],
        );
      } else {
        assert.equal(one.body.currency, 'USD');
      }
    });

    test(`${version}: details and balances`, async () => {
      const details = await t.call('GET', `/accounts/${checking.id}/details`, { token, version });
      assert.equal(details.status, 200);
      assert.equal(details.headers.get('service-enrollment-status'), 'healthy');
      assert.equal(details.body.account_number.slice(-4), checking.last_four);
      assert.equal(details.body.routing_numbers.ach, '021000021');
      const balances = await t.call('GET', `/accounts/${checking.id}/balances`, { token, version });
      assert.equal(balances.status, 200);
      assert.equal(balances.headers.get('service-enrollment-status'), 'healthy');
      if (version === '2019-07-01')
        assert.deepEqual(
          balances.body.map((b: any) => b.type),
          ['ledger', 'available'],
        );
      else assert.match(balances.body.ledger, /^-?\d+\.\d{2}$/);
    });

    test(`${version}: unknown account is 404 not_found`, async () => {
      const reply = await t.call('GET', '/accounts/acc_doesnotexist', { token, version });
      assert.equal(reply.status, 404);
      assert.equal(reply.body.error.code, 'not_found');
      for (const sub of ['details', 'balances', 'transactions']) {
        assert.equal((await t.call('GET', `/accounts/acc_doesnotexist/${sub}`, { token, version })).status, 404);
      }
    });
  }

  test('credit card balances: ledger owed, available is credit left', async () => {
    const balances = await t.call('GET', `/accounts/${card.id}/balances`, { token });
    assert.ok(Number(balances.body.ledger) >= 0);
    assert.ok(Number(balances.body.available) > 0);
  });

  for (const version of VERSIONS) {
    test(`${version}: a credit card has no details link, and its details answer 404 not_found`, async () => {
      const one = await t.call('GET', `/accounts/${card.id}`, { token, version });
      assert.equal(one.body.links.details, undefined);
      const details = await t.call('GET', `/accounts/${card.id}/details`, { token, version });
      assert.equal(details.status, 404);
      assert.equal(details.body.error.code, 'not_found');
    });
  }

  test('GET /institutions needs no token and lists products', async () => {
    const reply = await t.call('GET', '/institutions');
    assert.equal(reply.status, 200);
    const chase = reply.body.find((i: any) => i.id === 'chase');
    assert.ok(chase.products.includes('payments'));
    assert.ok(reply.body.some((i: any) => i.products.includes('verify.microdeposit')));
    for (const institution of reply.body) assert.match(institution.id, /^[a-z0-9]+(_[a-z0-9]+)*$/);
    assert.equal((await t.call('GET', '/institutions', { version: '2019-07-01' })).status, 200);
  });

  for (const version of VERSIONS) {
    test(`${version}: GET / links to accounts and institutions, with or without a token`, async () => {
      const links = { accounts: 'http://localhost/accounts', institutions: 'http://localhost/institutions' };
      for (const options of [{}, { token }, { headers: { authorization: token } }, { token: 'test_token_unknown' }]) {
        const reply = await t.call('GET', '/', { version, ...options });
        assert.equal(reply.status, 200, reply.text);
        assert.deepEqual(reply.body, { links });
        assert.equal(reply.headers.get('service-version'), version);
      }
      const followed = await t.call('GET', new URL(links.accounts).pathname, { token, version });
      assert.equal(followed.status, 200);
    });
  }
});

describe('authentication', () => {
  let t: TestApp;
  beforeAll(() => {
    t = testApp();
  });
  afterAll(() => t.close());

  test('no token: 401 unauthorized', async () => {
    const reply = await t.call('GET', '/accounts');
    assert.equal(reply.status, 401);
    assert.equal(reply.body.error.code, 'unauthorized');
    assert.equal(reply.headers.get('service-version'), '2020-10-12');
  });

  test('unknown token: 403 forbidden', async () => {
    const reply = await t.call('GET', '/accounts', { token: 'test_token_nope' });
    assert.equal(reply.status, 403);
    assert.equal(reply.body.error.code, 'forbidden');
  });

  test('the raw token as the whole Authorization value works in every version', async () => {
    const { token } = await t.enroll();
    const old = await t.call('GET', '/accounts', { version: '2019-07-01', headers: { authorization: token } });
    assert.equal(old.status, 200);
    const current = await t.call('GET', '/accounts', { headers: { authorization: token } });
    assert.equal(current.status, 200);
    assert.deepEqual(current.body, (await t.call('GET', '/accounts', { token })).body);
    const other = await t.call('GET', '/accounts', { headers: { authorization: `Bearer ${token}` } });
    assert.equal(other.status, 401);
  });

  test("a token never reaches another enrollment's accounts", async () => {
    const a = await t.enroll();
    const b = await t.enroll();
    const foreign = b.accounts[0].id;
    for (const path of [`/accounts/${foreign}`, `/accounts/${foreign}/balances`, `/accounts/${foreign}/transactions`, `/accounts/${foreign}/details`]) {
      const reply = await t.call('GET', path, { token: a.token });
      assert.equal(reply.status, 404, path);
    }
    assert.equal((await t.call('DELETE', `/accounts/${foreign}`, { token: a.token })).status, 404);
    assert.equal((await t.call('GET', `/accounts/${foreign}`, { token: b.token })).status, 200);
  });

  test('a live token without a client certificate: 400 bad_request', async () => {
    const reply = await t.call('GET', '/accounts', { token: 'token_abcdef' });
    assert.equal(reply.status, 400);
    assert.equal(reply.body.error.code, 'bad_request');
  });

  test('same username, same shapes; different ids', async () => {
    const a = await t.enroll();
    const b = await t.enroll();
    assert.notEqual(a.accounts[0].id, b.accounts[0].id);
    const shape = (x: any) => ({ ...x, id: undefined, enrollment_id: undefined, links: undefined });
    assert.deepEqual(a.accounts.map(shape), b.accounts.map(shape));
    const ta = await t.call('GET', `/accounts/${a.accounts[0].id}/transactions`, { token: a.token });
    const tb = await t.call('GET', `/accounts/${b.accounts[0].id}/transactions`, { token: b.token });
    const strip = (txn: any) => [txn.amount, txn.date, txn.description, txn.status, txn.running_balance];
    assert.deepEqual(ta.body.map(strip), tb.body.map(strip));
    assert.notEqual(ta.body[0].id, tb.body[0].id);
  });
});

describe('removing access', () => {
  let t: TestApp;
  beforeAll(() => {
    t = testApp();
  });
  afterAll(() => t.close());

  for (const version of VERSIONS) {
    test(`${version}: DELETE /accounts/{id} removes one account`, async () => {
      const { token, accounts } = await t.enroll();
      const reply = await t.call('DELETE', `/accounts/${accounts[1].id}`, { token, version });
      assert.equal(reply.status, 204);
      assert.equal(reply.text, '');
      assert.equal((await t.call('GET', `/accounts/${accounts[1].id}`, { token, version })).status, 404);
      assert.equal((await t.call('GET', `/accounts/${accounts[1].id}/balances`, { token, version })).status, 404);
      assert.equal((await t.call('DELETE', `/accounts/${accounts[1].id}`, { token, version })).status, 404);
      const list = await t.call('GET', '/accounts', { token, version });
      assert.deepEqual(
        list.body.map((a: any) => a.id),
        [accounts[0].id, accounts[2].id],
      );
      assert.equal((await t.call('GET', `/accounts/${accounts[0].id}`, { token, version })).status, 200);
    });

    test(`${version}: DELETE /accounts revokes the token`, async () => {
      const { token } = await t.enroll();
      const reply = await t.call('DELETE', '/accounts', { token, version });
      assert.equal(reply.status, 204);
      const after = await t.call('GET', '/accounts', { token, version });
      assert.equal(after.status, 403);
      assert.equal(after.body.error.code, 'forbidden');
      assert.equal((await t.call('DELETE', '/accounts', { token, version })).status, 403);
    });
  }
});

describe('versions', () => {
  let t: TestApp;
  beforeAll(() => {
    t = testApp({ defaultVersion: '2019-07-01' });
  });
  afterAll(() => t.close());

  test('the application default applies without Service-Version', async () => {
    const { token, accounts } = await t.enroll();
    const reply = await t.call('GET', `/accounts/${accounts[0].id}`, { token });
    assert.equal(reply.headers.get('service-version'), '2019-07-01');
    assert.equal(reply.body.type, 'bank_account');
    const current = await t.call('GET', `/accounts/${accounts[0].id}`, { token, version: '2020-10-12' });
    assert.equal(current.headers.get('service-version'), '2020-10-12');
    assert.equal(current.body.type, 'depository');
  });

  test('an unknown version is 400 bad_request naming the versions', async () => {
    const { token } = await t.enroll();
    const reply = await t.call('GET', '/accounts', { token, version: '2021-01-01' });
    assert.equal(reply.status, 400);
    assert.equal(reply.body.error.code, 'bad_request');
    assert.match(reply.body.error.message, /2020-10-12/);
    assert.equal(reply.headers.get('service-version'), '2019-07-01');
  });

  test('unknown routes answer the Error body', async () => {
    const reply = await t.call('GET', '/nothing-here', { unchecked: true });
    assert.equal(reply.status, 404);
    assert.equal(reply.body.error.code, 'not_found');
  });
});

describe('common errors on every operation', () => {
  let t: TestApp;
  let account: string;
  beforeAll(async () => {
    t = testApp();
    account = (await t.enroll()).accounts[0].id;
  });
  afterAll(() => t.close());

  const operations = (id: string) =>
    [
      ['GET', '/accounts'],
      ['DELETE', '/accounts'],
      ['GET', `/accounts/${id}`],
      ['DELETE', `/accounts/${id}`],
      ['GET', `/accounts/${id}/details`],
      ['GET', `/accounts/${id}/balances`],
      ['GET', `/accounts/${id}/transactions`],
      ['GET', `/accounts/${id}/transactions/txn_x`],
      ['POST', `/accounts/${id}/payees`],
      ['OPTIONS', `/accounts/${id}/payments`],
      ['POST', `/accounts/${id}/payments`],
      ['GET', `/accounts/${id}/payments`],
      ['GET', `/accounts/${id}/payments/pay_x`],
    ] as const;

  for (const version of VERSIONS) {
    test(`${version}: 401 without a token, 403 with an unknown one, 400 for an unknown version`, async () => {
      for (const [method, path] of operations(account)) {
        const none = await t.call(method, path, { version });
        assert.equal(none.status, 401, `${method} ${path}`);
        assert.equal(none.body.error.code, 'unauthorized');
        const unknown = await t.call(method, path, { version, token: 'test_token_unknown' });
        assert.equal(unknown.status, 403, `${method} ${path}`);
        const badVersion = await t.call(method, path, { version: '1999-01-01', token: 'test_token_unknown' });
        assert.equal(badVersion.status, 400, `${method} ${path}`);
      }
    });
  }

  test('sandbox operations: 401 without a token, 403 for unknown and live tokens', async () => {
    for (const [method, path] of [
      ['POST', '/sandbox/enrollment/disconnect'],
      ['POST', '/sandbox/enrollment/refresh'],
      ['POST', `/sandbox/accounts/${account}/close`],
      ['GET', '/sandbox/clock'],
      ['POST', '/sandbox/clock/advance'],
      ['GET', '/sandbox/webhook'],
      ['PUT', '/sandbox/webhook'],
      ['POST', '/sandbox/webhook/secrets'],
      ['POST', '/sandbox/events'],
      ['GET', '/sandbox/webhook/deliveries'],
    ] as const) {
      assert.equal((await t.call(method, path)).status, 401, `${method} ${path}`);
      assert.equal((await t.call(method, path, { token: 'test_token_unknown' })).status, 403, `${method} ${path}`);
      const live = await t.call(method, path, { token: 'token_live' });
      assert.equal(live.body.error.code, 'sandbox.live_token', `${method} ${path}`);
    }
  });
});
