// The state machines, driven through the sandbox control API: posting, enrichment, refresh,
// microdeposit verification, disconnection and closed accounts, with their events.
import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { type Receiver, receiver, type TestApp, testApp } from './helpers/harness.ts';

const VERSIONS = ['2020-10-12', '2019-07-01'] as const;

describe('sandbox lifecycle', () => {
  let t: TestApp;
  let hook: Receiver;
  let secrets: string[] = [];

  beforeAll(async () => {
    t = testApp();
    hook = await receiver(() => secrets);
    const { token } = await t.enroll();
    const settings = await t.call('PUT', '/sandbox/webhook', { token, json: { url: hook.url } });
    assert.equal(settings.status, 200);
    secrets = settings.body.secrets.map((s: any) => s.secret);
  });
  afterAll(async () => {
    await t.close();
    await hook.close();
  });

  const ofEnrollment = (enrollmentId: string, type: string) => (event: any) =>
    event.type === type &&
    (event.payload.enrollment_id === enrollmentId || event.payload.transactions?.some((txn: any) => txn.links.account.includes('acc_')) === true);

  test('the clock: real time plus an offset that only moves forward', async () => {
    const { token } = await t.enroll();
    const before = await t.call('GET', '/sandbox/clock', { token });
    assert.equal(before.status, 200);
    assert.equal(before.body.offset_seconds, 0);
    const moved = await t.call('POST', '/sandbox/clock/advance', { token, json: { days: 1, seconds: 30 } });
    assert.equal(moved.status, 200);
    assert.equal(moved.body.offset_seconds, 86_430);
    assert.ok(Date.parse(moved.body.now) - Date.parse(before.body.now) >= 86_430_000);
    const bad = await t.call('POST', '/sandbox/clock/advance', { token, json: { days: -1 } });
    assert.equal(bad.status, 422);
    assert.ok(bad.body.error.params.days);
    const empty = await t.call('POST', '/sandbox/clock/advance', { token, json: {} });
    assert.equal(empty.status, 422);
  });

  test('pending transactions post: date moves, running balance appears, some get new ids; enrichment completes', async () => {
    const { token, accounts } = await t.enroll();
    const id = accounts[0].id;
    const before = (await t.call('GET', `/accounts/${id}/transactions`, { token })).body;
    const pending = before.filter((txn: any) => txn.status === 'pending');
    assert.ok(pending.length > 0);
    assert.ok(before.some((txn: any) => txn.details.processing_status === 'pending'));

    await t.call('POST', '/sandbox/clock/advance', { token, json: { days: 4 } });
    const afterList = (await t.call('GET', `/accounts/${id}/transactions`, { token })).body;
    const byId = new Map(afterList.map((txn: any) => [txn.id, txn]));
    let replaced = 0;
    for (const txn of pending) {
      const now: any = byId.get(txn.id);
      if (!now) {
        replaced++;
        continue;
      }
      assert.equal(now.status, 'posted');
      assert.match(now.running_balance, /^-?\d+\.\d{2}$/);
      assert.ok(now.date > txn.date, 'posting date is later');
    }
    // Every transaction of the old list is either still there or was replaced by a new id.
    const newIds = afterList.filter((txn: any) => !before.some((old: any) => old.id === txn.id));
    assert.ok(newIds.length >= replaced);
    // Enrichment of the old transactions completed.
    for (const txn of before) {
      const now: any = byId.get(txn.id);
      if (now) assert.equal(now.details.processing_status, 'complete');
    }
    // Ledger consistency still holds after posting.
    const posted = afterList.filter((txn: any) => txn.status === 'posted');
    for (let i = 0; i < posted.length - 1; i++) {
      assert.equal(
        Math.round(Number(posted[i].running_balance) * 100) - Math.round(Number(posted[i].amount) * 100),
        Math.round(Number(posted[i + 1].running_balance) * 100),
      );
    }
    const balances = (await t.call('GET', `/accounts/${id}/balances`, { token })).body;
    assert.equal(posted[0].running_balance, balances.ledger);
    // The daily refreshes of the advanced days sent transactions.processed.
    await hook.waitFor(1, (event) => event.type === 'transactions.processed' && event.payload.transactions.some((txn: any) => txn.account_id === id));
  });

  test('over many clock moves some pending transactions are replaced by new ids', async () => {
    const { token, accounts } = await t.enroll();
    const id = accounts[0].id;
    let replaced = 0;
    for (let day = 0; day < 20 && replaced === 0; day++) {
      const before = (await t.call('GET', `/accounts/${id}/transactions?count=50`, { token })).body.filter((txn: any) => txn.status === 'pending');
      await t.call('POST', '/sandbox/clock/advance', { token, json: { days: 3 } });
      for (const txn of before) {
        const reply = await t.call('GET', `/accounts/${id}/transactions/${txn.id}`, { token });
        if (reply.status === 404) replaced++;
      }
    }
    assert.ok(replaced > 0);
  });

  test('refresh adds pending transactions and sends transactions.processed with them', async () => {
    const { token, accounts, enrollmentId } = await t.enroll();
    const reply = await t.call('POST', '/sandbox/enrollment/refresh', { token });
    assert.equal(reply.status, 200);
    assert.ok(reply.body.new_transactions > 0);
    const ids = new Set(accounts.map((a: any) => a.id));
    const [received] = await hook.waitFor(
      1,
      (event) => event.type === 'transactions.processed' && event.payload.transactions.some((txn: any) => ids.has(txn.account_id)),
    );
    assert.equal(received!.event.payload.transactions.length, reply.body.new_transactions);
    assert.equal(received!.event.payload.enrollment_id, enrollmentId);
    for (const txn of received!.event.payload.transactions) {
      assert.equal(txn.status, 'pending');
      assert.equal(txn.details.processing_status, 'pending');
      const fetched = await t.call('GET', `/accounts/${txn.account_id}/transactions/${txn.id}`, { token });
      assert.equal(fetched.status, 200);
    }
  });

  test('microdeposit: Success verifies once its transactions are fetched', async () => {
    const { token, accounts, enrollmentId } = await t.enroll('verify.microdeposit');
    assert.deepEqual(
      accounts.map((a: any) => a.name),
      ['Success', 'Failure'],
    );
    const success = accounts[0];
    for (const version of VERSIONS) {
      const pending = await t.call('GET', `/accounts/${success.id}/details`, { token, version });
      assert.equal(pending.status, 404);
      assert.equal(pending.body.error.code, 'account_number_verification_pending');
    }
    const old = await t.call('GET', `/accounts/${success.id}`, { token, version: '2019-07-01' });
    assert.equal(old.body.account_number, null);
    const list = await t.call('GET', `/accounts/${success.id}/transactions`, { token });
    assert.equal(list.body.filter((txn: any) => txn.type === 'microdeposit').length, 2);
    const details = await t.call('GET', `/accounts/${success.id}/details`, { token });
    assert.equal(details.status, 200);
    assert.match(details.body.account_number, /^\d+$/);
    const [received] = await hook.waitFor(
      1,
      (event) => event.type === 'account.number_verification.processed' && event.payload.account_id === success.id,
    );
    assert.equal(received!.event.payload.status, 'completed');
    assert.equal(received!.event.payload.enrollment_id, enrollmentId);
  });

  test('microdeposit: Failure stays pending, then expires after 7 days', async () => {
    const { token, accounts, enrollmentId } = await t.enroll('verify.microdeposit');
    const failure = accounts[1];
    await t.call('GET', `/accounts/${failure.id}/transactions`, { token });
    await t.call('POST', '/sandbox/clock/advance', { token, json: { days: 6 } });
    const pending = await t.call('GET', `/accounts/${failure.id}/details`, { token });
    assert.equal(pending.body.error.code, 'account_number_verification_pending');
    await t.call('POST', '/sandbox/clock/advance', { token, json: { days: 1, seconds: 60 } });
    for (const version of VERSIONS) {
      const expired = await t.call('GET', `/accounts/${failure.id}/details`, { token, version });
      assert.equal(expired.status, 404);
      assert.equal(expired.body.error.code, 'account_number_verification_expired');
      assert.equal(expired.headers.get('service-enrollment-status'), 'healthy');
    }
    const [received] = await hook.waitFor(
      1,
      (event) => event.type === 'account.number_verification.processed' && event.payload.account_id === failure.id,
    );
    assert.equal(received!.event.payload.status, 'expired');
    assert.equal(received!.event.payload.enrollment_id, enrollmentId);
  });

  for (const username of ['disconnected', 'disconnected.credentials_changed']) {
    test(`${username}: disconnects at the first data request`, async () => {
      const { token, accounts, enrollmentId } = await t.enroll(username);
      const reason = username === 'disconnected' ? null : 'credentials_changed';
      const status = reason ? `disconnected.${reason}` : 'disconnected';
      const code = reason ? `enrollment.disconnected.${reason}` : 'enrollment.disconnected';
      const healthy = await t.call('GET', `/accounts/${accounts[0].id}`, { token });
      assert.equal(healthy.headers.get('service-enrollment-status'), 'healthy');
      for (const version of VERSIONS) {
        for (const sub of ['details', 'balances', 'transactions', `transactions/txn_x`]) {
          const reply = await t.call('GET', `/accounts/${accounts[0].id}/${sub}`, { token, version });
          assert.equal(reply.status, 404, sub);
          assert.equal(reply.body.error.code, code);
          assert.equal(reply.headers.get('service-enrollment-status'), status);
        }
        const one = await t.call('GET', `/accounts/${accounts[0].id}`, { token, version });
        assert.equal(one.status, 200);
        assert.equal(one.headers.get('service-enrollment-status'), status);
        assert.equal((await t.call('GET', '/accounts', { token, version })).status, 200);
      }
      const [received] = await hook.waitFor(1, ofEnrollment(enrollmentId, 'enrollment.disconnected'));
      assert.deepEqual(received!.event.payload, { enrollment_id: enrollmentId, reason: status });
      const refresh = await t.call('POST', '/sandbox/enrollment/refresh', { token });
      assert.equal(refresh.status, 404);
      assert.equal(refresh.body.error.code, code);
    });
  }

  test('disconnect through the control API; a second disconnect changes the reason without an event', async () => {
    const { token, accounts, enrollmentId } = await t.enroll();
    const reply = await t.call('POST', '/sandbox/enrollment/disconnect', { token, json: { reason: 'account_locked' } });
    assert.equal(reply.status, 200);
    assert.equal(reply.body.status, 'disconnected.account_locked');
    const balances = await t.call('GET', `/accounts/${accounts[0].id}/balances`, { token });
    assert.equal(balances.body.error.code, 'enrollment.disconnected.account_locked');
    const [received] = await hook.waitFor(1, ofEnrollment(enrollmentId, 'enrollment.disconnected'));
    assert.equal(received!.event.payload.reason, 'disconnected.account_locked');
    const again = await t.call('POST', '/sandbox/enrollment/disconnect', { token, json: {} });
    assert.equal(again.body.status, 'disconnected');
    await new Promise((resolve) => setTimeout(resolve, 150));
    assert.equal(hook.events.filter((e) => ofEnrollment(enrollmentId, 'enrollment.disconnected')(e.event)).length, 1);
    const invalid = await t.call('POST', '/sandbox/enrollment/disconnect', { token, json: { reason: 'Not Valid' } });
    assert.equal(invalid.status, 422);
    assert.ok(invalid.body.error.params.reason);
  });

  test('closed: 410 account.closed on the account and every sub-resource', async () => {
    const { token, accounts } = await t.enroll('closed');
    assert.equal(accounts.length, 1);
    assert.equal(accounts[0].status, 'closed');
    assert.deepEqual(Object.keys(accounts[0].links), ['self']);
    const id = accounts[0].id;
    for (const version of VERSIONS) {
      const list = await t.call('GET', '/accounts', { token, version });
      assert.equal(list.body[0].status, 'closed');
      for (const [method, path] of [
        ['GET', ''],
        ['GET', '/details'],
        ['GET', '/balances'],
        ['GET', '/transactions'],
        ['GET', '/transactions/txn_x'],
        ['GET', '/payments'],
        ['OPTIONS', '/payments'],
        ['GET', '/payments/pay_x'],
        ['DELETE', ''],
      ] as const) {
        const reply = await t.call(method, `/accounts/${id}${path}`, { token, version });
        assert.equal(reply.status, 410, `${method} ${path}`);
        assert.equal(reply.body.error.code, 'account.closed');
      }
      const payee = await t.call('POST', `/accounts/${id}/payees`, {
        token,
        version,
        json: { scheme: 'zelle', address: 'a@example.com', name: 'A', type: 'person' },
      });
      assert.equal(payee.status, 410);
    }
  });

  test('closing through the control API, with a reason', async () => {
    const { token, accounts } = await t.enroll();
    const reply = await t.call('POST', `/sandbox/accounts/${accounts[1].id}/close`, { token, json: { reason: 'insufficient_access' } });
    assert.equal(reply.status, 200);
    assert.equal(reply.body.status, 'closed');
    const gone = await t.call('GET', `/accounts/${accounts[1].id}/balances`, { token });
    assert.equal(gone.status, 410);
    assert.equal(gone.body.error.code, 'account.closed.insufficient_access');
    const again = await t.call('POST', `/sandbox/accounts/${accounts[1].id}/close`, { token, json: {} });
    assert.equal(again.status, 200);
    assert.equal((await t.call('GET', `/accounts/${accounts[0].id}/balances`, { token })).status, 200);
    const missing = await t.call('POST', '/sandbox/accounts/acc_missing/close', { token, json: {} });
    assert.equal(missing.status, 404);
  });
});

describe('sandbox control API rules', () => {
  let t: TestApp;
  beforeAll(() => {
    t = testApp();
  });
  afterAll(() => t.close());

  test('credentials: password is `password`, usernames are the test users', async () => {
    const wrong = await t.call('POST', '/sandbox/enrollments', { json: { username: 'username', password: 'nope' } });
    assert.equal(wrong.status, 401);
    assert.equal(wrong.body.error.code, 'credentials_invalid');
    assert.match(wrong.body.error.message, /every sandbox test user's password is "password"/);
    const unknown = await t.call('POST', '/sandbox/enrollments', { json: { username: 'someone', password: 'password' } });
    assert.equal(unknown.status, 401);
    // It names the test users that exist, so a typo is one look away from fixed.
    assert.match(unknown.body.error.message, /no sandbox test user "someone"/);
    for (const user of ['username', 'verify.microdeposit', 'disconnected.<reason>', 'closed', 'history.<n>', 'institution.down']) {
      assert.ok(unknown.body.error.message.includes(user), user);
    }
    const outOfRange = await t.call('POST', '/sandbox/enrollments', { json: { username: 'history.0', password: 'password' } });
    assert.equal(outOfRange.status, 401);
    assert.match(outOfRange.body.error.message, /history\.<n> \(n from 1 to \d+\)/);
    const institution = await t.call('POST', '/sandbox/enrollments', { json: { username: 'username', password: 'password', institution: 'nobank' } });
    assert.equal(institution.status, 422);
    assert.ok(institution.body.error.params.institution);
    const missing = await t.call('POST', '/sandbox/enrollments', { json: { username: 'username' } });
    assert.equal(missing.status, 422);
    assert.deepEqual(missing.body.error.params, { password: ['is required'] });
    const malformed = await t.call('POST', '/sandbox/enrollments', { body: '{"username":', headers: { 'content-type': 'application/json' } });
    assert.equal(malformed.status, 400);
    assert.equal(malformed.body.error.code, 'bad_request');
  });

  test('an institution without payments gives no payments link', async () => {
    const { accounts } = await t.enroll('username', 'ally');
    assert.equal(accounts[0].institution.id, 'ally');
    assert.equal(accounts[0].links.payments, undefined);
  });

  test('every operation but enrollment needs a sandbox token; live tokens get 403 sandbox.live_token', async () => {
    const none = await t.call('GET', '/sandbox/clock');
    assert.equal(none.status, 401);
    const live = await t.call('GET', '/sandbox/clock', { token: 'token_live123' });
    assert.equal(live.status, 403);
    assert.equal(live.body.error.code, 'sandbox.live_token');
    const unknown = await t.call('GET', '/sandbox/webhook', { token: 'test_token_unknown' });
    assert.equal(unknown.status, 403);
    assert.equal(unknown.body.error.code, 'forbidden');
  });

  test('with the sandbox off the control API does not exist', async () => {
    const off = testApp({ sandbox: false });
    const reply = await off.call('POST', '/sandbox/enrollments', { json: { username: 'username', password: 'password' }, unchecked: true });
    assert.equal(reply.status, 404);
    assert.equal(reply.body.error.code, 'not_found');
    await off.close();
  });
});

describe('failures on purpose', () => {
  let t: TestApp;
  beforeAll(() => {
    t = testApp();
  });
  afterAll(() => t.close());

  for (const version of VERSIONS) {
    test(`${version}: timeout.first_transactions: the first transactions request answers 504 once, the retry is served`, async () => {
      const { token, accounts } = await t.enroll('timeout.first_transactions');
      const path = `/accounts/${accounts[0].id}/transactions`;
      const first = await t.call('GET', path, { token, version });
      assert.equal(first.status, 504);
      assert.equal(first.body.error.code, 'gateway_timeout');
      assert.equal(first.headers.get('retry-after'), '1');
      const retry = await t.call('GET', path, { token, version });
      assert.equal(retry.status, 200);
      assert.ok(retry.body.length > 0);
      assert.equal((await t.call('GET', `/accounts/${accounts[1].id}/transactions`, { token, version })).status, 200);
    });
  }

  test('institution.down: every request that needs the institution answers 502 bad_gateway', async () => {
    const { token, accounts } = await t.enroll('institution.down');
    const checking = accounts[0].id;
    for (const version of VERSIONS) {
      for (const sub of ['details', 'balances', 'transactions', 'transactions/txn_x']) {
        const reply = await t.call('GET', `/accounts/${checking}/${sub}`, { token, version });
        assert.equal(reply.status, 502, sub);
        assert.equal(reply.body.error.code, 'bad_gateway');
      }
      assert.equal((await t.call('GET', '/accounts', { token, version })).status, 200);
      assert.equal((await t.call('GET', `/accounts/${checking}`, { token, version })).status, 200);
    }
    const payee = await t.call('POST', `/accounts/${checking}/payees`, {
      token,
      json: { scheme: 'zelle', address: 'a@example.com', name: 'A', type: 'person' },
    });
    assert.equal(payee.status, 502);
    const payment = await t.call('POST', `/accounts/${checking}/payments`, {
      token,
      json: { amount: '5', memo: 'x', payee: { scheme: 'zelle', address: 'a@example.com', name: 'A', type: 'person' } },
    });
    assert.equal(payment.status, 502);
    assert.equal((await t.call('GET', `/accounts/${checking}/payments`, { token })).body.length, 0);
  });

  test("rate_limited.<n>: the token's first n requests answer 429 with Retry-After, then requests are served", async () => {
    const { token } = await t.enroll('rate_limited.2');
    assert.equal((await t.call('GET', '/sandbox/clock', { token })).status, 200, 'the control API is not limited');
    for (let i = 0; i < 2; i++) {
      const limited = await t.call('GET', '/accounts', { token });
      assert.equal(limited.status, 429);
      assert.equal(limited.body.error.code, 'rate_limited');
      assert.equal(limited.headers.get('retry-after'), '1');
    }
    assert.equal((await t.call('GET', '/accounts', { token })).status, 200);
    assert.equal((await t.call('GET', '/accounts', { token })).status, 200);
    for (const username of ['rate_limited.0', 'rate_limited.101', 'rate_limited.x']) {
      const refused = await t.call('POST', '/sandbox/enrollments', { json: { username, password: 'password' } });
      assert.equal(refused.status, 401, username);
    }
  });
});
