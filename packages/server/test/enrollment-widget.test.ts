// What the enrollment widget stands on: users, each application's signing key, the sign-in that asks for a one-time
// code, reconnecting a disconnected enrollment (control API and widget), and the widget's sessions (enroll with the
// accounts the user chose, reconnect, approve an MFA challenge), every refusal a documented code that changes
// nothing. On both stores.
import assert from 'node:assert/strict';
import { verify } from 'node:crypto';
import { afterAll, beforeAll, test } from 'vitest';
import { CONNECT_SESSION_LIFETIME_MS } from '../src/domain/connect-sessions.ts';
import { enrollmentSignatureMessage } from '../src/domain/enrollment-signatures.ts';
import { type Receiver, receiver, type TestApp, testApp } from './helpers/harness.ts';
import { appOptions, describeUnless, storeKinds } from './helpers/stores.ts';

/** The Ed25519 public key of `GET /sandbox/application`, as node:crypto takes it. */
const publicKey = (raw: string) => ({ key: { kty: 'OKP', crv: 'Ed25519', x: raw }, format: 'jwk' as const });

for (const kind of await storeKinds()) {
  describeUnless(kind.skip, `enrollment widget (${kind.name})`, () => {
    let t: TestApp;
    let now = Date.now();
    let application: { id: string; name: string; signing_key: { id: string; public_key: string } };
    let received: Receiver;

    beforeAll(async () => {
      t = testApp({ ...appOptions(await kind.location()), now: () => now });
      const { token } = await t.enroll();
      application = (await t.call('GET', '/sandbox/application', { token })).body;
      let secrets: string[] = [];
      received = await receiver(() => secrets);
      const settings = await t.call('PUT', '/sandbox/webhook', { token, json: { url: received.url } });
      secrets = settings.body.secrets.map((secret: { secret: string }) => secret.secret);
    });
    afterAll(async () => {
      await t.close();
      await received.close();
    });

    /** The enrollment's events of these types, in the order they arrived, once `count` arrived. */
    const eventsOf = async (enrollmentId: string, types: string[], count: number) =>
      (await received.waitFor(count, (event) => types.includes(event.type) && event.payload.enrollment_id === enrollmentId)).map(({ event }) => [
        event.type,
        event.payload,
      ]);

    const start = (json: Record<string, unknown>) => t.call('POST', '/sandbox/connect/sessions', { json: { application_id: application.id, ...json } });
    const step = (session: string, name: string, json: Record<string, unknown> = {}) =>
      t.call('POST', `/sandbox/connect/sessions/${session}/${name}`, { json: { application_id: application.id, ...json } });
    const signIn = (session: string, username = 'username', extra: Record<string, unknown> = {}) =>
      step(session, 'credentials', { institution_id: 'chase', username, password: 'password', ...extra });

    test('the default application has a signing key, kept from one read to the next; a new application gets its own', async () => {
      assert.equal(application.id, 'app_default');
      assert.equal(application.name, 'Sandbox application');
      assert.match(application.signing_key.id, /^key_/);
      assert.equal(Buffer.from(application.signing_key.public_key, 'base64url').length, 32);
      const { token } = await t.enroll();
      assert.deepEqual((await t.call('GET', '/sandbox/application', { token })).body.signing_key, application.signing_key);
      const created = await t.call('POST', '/sandbox/applications', { json: { name: 'Budget Buddy' } });
      assert.equal(created.body.application.name, 'Budget Buddy');
      assert.notEqual(created.body.application.signing_key.public_key, application.signing_key.public_key);
    });

    test('users: every enrollment of one username in one application is one user, shown where the enrollment is', async () => {
      const one = await t.call('POST', '/sandbox/enrollments', { json: { username: 'username', password: 'password' } });
      const two = await t.call('POST', '/sandbox/enrollments', { json: { username: 'username', password: 'password' } });
      const other = await t.call('POST', '/sandbox/enrollments', { json: { username: 'closed', password: 'password' } });
      assert.match(one.body.user.id, /^usr_[a-z0-9]+$/);
      assert.equal(two.body.user.id, one.body.user.id);
      assert.notEqual(other.body.user.id, one.body.user.id);
      const key = (await t.call('POST', '/sandbox/applications', { json: {} })).body.key;
      const elsewhere = await t.call('POST', '/sandbox/enrollments', { token: key, json: { username: 'username', password: 'password' } });
      assert.notEqual(elsewhere.body.user.id, one.body.user.id);
      const disconnected = await t.call('POST', '/sandbox/enrollment/disconnect', { token: one.body.access_token, json: {} });
      assert.equal(disconnected.body.user.id, one.body.user.id);
    });

    test('mfa.device: the control API takes the one-time code, and refuses a missing or wrong one', async () => {
      const enroll = (extra: Record<string, unknown>) =>
        t.call('POST', '/sandbox/enrollments', { json: { username: 'mfa.device', password: 'password', ...extra } });
      assert.equal((await enroll({})).body.error.code, 'mfa.code_required');
      const wrong = await enroll({ mfa_code: '0000' });
      assert.deepEqual([wrong.status, wrong.body.error.code], [401, 'mfa.code_invalid']);
      assert.equal((await enroll({ mfa_code: '1234' })).status, 201);
      // Other users ignore it.
      assert.equal((await t.call('POST', '/sandbox/enrollments', { json: { username: 'username', password: 'password', mfa_code: '9' } })).status, 201);
    });

    test('reconnect through the control API: healthy again, data readable, enrollment.reconnected recorded; a healthy one is refused', async () => {
      const { token, enrollmentId, accounts } = await t.enroll('disconnected.credentials_changed');
      const balances = `/accounts/${accounts[0].id}/balances`;
      assert.equal((await t.call('GET', balances, { token })).body.error.code, 'enrollment.disconnected.credentials_changed');
      const reconnected = await t.call('POST', '/sandbox/enrollment/reconnect', { token });
      assert.deepEqual([reconnected.status, reconnected.body.id, reconnected.body.status], [200, enrollmentId, 'healthy']);
      const read = await t.call('GET', balances, { token });
      assert.deepEqual([read.status, read.headers.get('service-enrollment-status')], [200, 'healthy']);
      const again = await t.call('POST', '/sandbox/enrollment/reconnect', { token });
      assert.deepEqual([again.status, again.body.error.code], [422, 'enrollment.not_disconnected']);
      const types = ['enrollment.disconnected', 'enrollment.reconnected'];
      assert.deepEqual(
        new Set(await eventsOf(enrollmentId, types, 2)),
        new Set([
          ['enrollment.disconnected', { enrollment_id: enrollmentId, reason: 'disconnected.credentials_changed' }],
          ['enrollment.reconnected', { enrollment_id: enrollmentId }],
        ]),
      );
      assert.deepEqual(received.rejected, []);
    });

    test('reconnecting refreshes the days the enrollment missed', async () => {
      const { token, accounts } = await t.enroll();
      await t.call('POST', '/sandbox/enrollment/disconnect', { token, json: {} });
      await t.call('POST', '/sandbox/clock/advance', { token, json: { days: 5 } });
      await t.call('POST', '/sandbox/enrollment/reconnect', { token });
      const today = ((await t.call('GET', '/sandbox/clock', { token })).body.now as string).slice(0, 10);
      const [newest] = (await t.call('GET', `/accounts/${accounts[2].id}/transactions?count=1`, { token })).body;
      // The card has activity every day: the days spent disconnected were simulated once it was back.
      const daysBehind = (Date.parse(today) - Date.parse(newest.date)) / 86_400_000;
      assert.ok(daysBehind <= 1, `the newest transaction is of ${newest.date}, ${today} today`);
    });

    test('enroll: sign in, choose accounts; only the chosen ones are granted; the result is signed', async () => {
      const started = await start({ products: ['transactions', 'payments'], select_account: 'multiple', nonce: 'n-8f3k2' });
      assert.equal(started.status, 201);
      assert.deepEqual(
        [started.body.mode, started.body.step, started.body.application],
        ['enroll', 'credentials', { id: application.id, name: application.name }],
      );
      const id = started.body.id as string;
      const chooser = await signIn(id);
      assert.equal(chooser.body.step, 'select_accounts');
      assert.deepEqual(
        chooser.body.accounts.map((account: { subtype: string }) => account.subtype),
        ['checking', 'savings', 'credit_card'],
      );
      const chosen = chooser.body.accounts[0];
      const done = await step(id, 'accounts', { account_ids: [chosen.id] });
      assert.equal(done.body.step, 'done');
      const result = done.body.result;
      assert.match(result.access_token, /^test_token_/);
      assert.deepEqual(
        result.accounts.map((account: { id: string; last_four: string }) => [account.id, account.last_four]),
        [[chosen.id, chosen.last_four]],
      );
      // The token works at once, and sees only the chosen account.
      const listed = await t.call('GET', '/accounts', { token: result.access_token });
      assert.deepEqual(
        listed.body.map((account: { id: string }) => account.id),
        [chosen.id],
      );
      assert.equal((await t.call('GET', `/accounts/${chooser.body.accounts[1].id}`, { token: result.access_token })).status, 404);
      // The signature covers the nonce, the token, the user and the enrollment.
      const [signature] = result.signatures;
      assert.equal(signature.key_id, application.signing_key.id);
      const signed = {
        nonce: 'n-8f3k2',
        accessToken: result.access_token,
        userId: result.user.id,
        enrollmentId: result.enrollment.id,
        environment: 'sandbox',
      };
      const valid = (fields: typeof signed) =>
        verify(
          null,
          Buffer.from(enrollmentSignatureMessage(fields)),
          publicKey(application.signing_key.public_key),
          Buffer.from(signature.signature, 'base64url'),
        );
      assert.ok(valid(signed));
      assert.ok(!valid({ ...signed, nonce: 'n-other' }));
      // The session is spent: another step is refused.
      assert.equal((await step(id, 'accounts', { account_ids: [chosen.id] })).body.error.code, 'connect_session.wrong_step');
    });

    test('enroll with the one-time code; a wrong password and a wrong code are refused and the session stays where it was', async () => {
      const id = (await start({})).body.id as string;
      const wrong = await signIn(id, 'mfa.device', { password: 'nope' });
      assert.deepEqual([wrong.status, wrong.body.error.code], [401, 'credentials_invalid']);
      const asked = await signIn(id, 'mfa.device');
      assert.deepEqual([asked.body.step, asked.body.institution.id], ['mfa', 'chase']);
      assert.ok(asked.body.mfa.prompt);
      const bad = await step(id, 'mfa', { code: '9999' });
      assert.deepEqual([bad.status, bad.body.error.code], [401, 'mfa.code_invalid']);
      const done = await step(id, 'mfa', { code: '1234' });
      assert.equal(done.body.step, 'done');
      assert.equal(done.body.result.accounts.length, 3, 'select_account disabled grants every account');
      assert.equal((await t.call('GET', '/accounts', { token: done.body.result.access_token })).status, 200);
    });

    test("enroll: the institution must offer the session's products; single selection takes exactly one account", async () => {
      const id = (await start({ products: ['payments'], select_account: 'single' })).body.id as string;
      const ally = await step(id, 'credentials', { institution_id: 'ally', username: 'username', password: 'password' });
      assert.deepEqual([ally.status, ally.body.error.code, Object.keys(ally.body.error.params)], [422, 'unprocessable_entity', ['institution_id']]);
      const chooser = await signIn(id);
      const ids = chooser.body.accounts.map((account: { id: string }) => account.id);
      assert.equal((await step(id, 'accounts', { account_ids: ids.slice(0, 2) })).status, 422);
      assert.equal((await step(id, 'accounts', { account_ids: ['acc_notoffered'] })).status, 422);
      assert.equal((await step(id, 'accounts', { account_ids: [ids[1]] })).body.result.accounts.length, 1);
    });

    test('reconnect through the widget: the enrollment keeps its token, as its own user only', async () => {
      const { token, enrollmentId } = await t.enroll('disconnected');
      await t.call('POST', '/sandbox/enrollment/disconnect', { token, json: {} });
      const started = await start({ enrollment_id: enrollmentId, nonce: 'again' });
      assert.deepEqual([started.body.mode, started.body.step, started.body.institution.id], ['reconnect', 'credentials', 'chase']);
      const id = started.body.id as string;
      const stranger = await step(id, 'credentials', { username: 'username', password: 'password' });
      assert.deepEqual([stranger.status, stranger.body.error.code], [401, 'credentials_invalid']);
      const elsewhere = await step(id, 'credentials', { institution_id: 'ally', username: 'disconnected', password: 'password' });
      assert.equal(elsewhere.status, 422);
      const done = await step(id, 'credentials', { username: 'disconnected', password: 'password' });
      assert.equal(done.body.step, 'done');
      assert.equal(done.body.result.access_token, null);
      assert.equal(done.body.result.enrollment.id, enrollmentId);
      assert.equal(done.body.result.signatures.length, 1);
      const state = await t.call('GET', '/accounts', { token });
      assert.equal(state.status, 200);
      assert.equal((await t.call('POST', '/sandbox/enrollment/reconnect', { token })).body.error.code, 'enrollment.not_disconnected');
    });

    test('approve through the widget: the challenge is approved, and the same request with the same key pays once', async () => {
      const { token, accounts } = await t.enroll('mfa.payments');
      const pay = () =>
        t.call('POST', `/accounts/${accounts[0].id}/payments`, {
          token,
          json: { amount: '5.00', memo: 'Widget approval', payee: { scheme: 'zelle', address: 'w@example.com', name: 'W', type: 'person' } },
          headers: { 'idempotency-key': 'widget-approval' },
        });
      const challenged = await pay();
      const connectToken = challenged.body.connect_token as string;
      const started = await start({ connect_token: connectToken });
      assert.deepEqual([started.body.mode, started.body.step, started.body.challenge.status], ['approve', 'approve', 'pending']);
      assert.equal(started.body.challenge.request.memo, 'Widget approval');
      const done = await step(started.body.id, 'approve');
      assert.deepEqual(done.body.result, { connect_token: connectToken, status: 'approved' });
      assert.equal(done.body.challenge.status, 'approved');
      assert.equal((await pay()).status, 202);
      const late = await start({ connect_token: connectToken });
      assert.deepEqual([late.status, late.body.error.code], [422, 'connect_token.completed']);
    });

    test('every refusal is a documented code, and changes nothing', async () => {
      const { token, enrollmentId, accounts } = await t.enroll();
      const key = (await t.call('POST', '/sandbox/applications', { json: {} })).body.key;
      const foreign = await t.call('POST', '/sandbox/enrollments', { token: key, json: { username: 'mfa.payments', password: 'password' } });
      const foreignChallenge = (
        await t.call('POST', `/accounts/${foreign.body.accounts[0].id}/payments`, {
          token: foreign.body.access_token,
          json: { amount: '1.00', memo: 'x', payee: { scheme: 'zelle', address: 'f@example.com', name: 'F', type: 'person' } },
        })
      ).body.connect_token;
      const cases: [Record<string, unknown>, number, string][] = [
        [{ application_id: 'app_unknown' }, 404, 'application.not_found'],
        [{ connect_token: 'not-a-token' }, 404, 'connect_token.not_found'],
        [{ connect_token: foreignChallenge }, 404, 'connect_token.not_found'],
        [{ enrollment_id: 'enr_unknown' }, 404, 'enrollment.not_found'],
        [{ enrollment_id: foreign.body.enrollment.id }, 404, 'enrollment.not_found'],
        [{ enrollment_id: enrollmentId }, 422, 'enrollment.not_disconnected'],
        [{ enrollment_id: enrollmentId, connect_token: 'x' }, 422, 'unprocessable_entity'],
        [{ select_account: 'some' }, 422, 'unprocessable_entity'],
      ];
      for (const [json, status, code] of cases) {
        const reply = await start(json);
        assert.deepEqual([reply.status, reply.body.error.code], [status, code], JSON.stringify(json));
      }
      assert.equal((await t.call('GET', `/accounts/${accounts[0].id}`, { token })).headers.get('service-enrollment-status'), 'healthy');
      const still = await t.call('GET', `/sandbox/connect_tokens/${foreignChallenge}`, { token: foreign.body.access_token });
      assert.equal(still.body.status, 'pending');
      // A session of one application cannot be driven with another's id; an unknown one is not found.
      const id = (await start({})).body.id as string;
      const other = await t.call('POST', `/sandbox/connect/sessions/${id}/credentials`, {
        json: { application_id: 'app_other', institution_id: 'chase', username: 'username', password: 'password' },
      });
      assert.deepEqual([other.status, other.body.error.code], [404, 'connect_session.not_found']);
      assert.equal((await step('cs_unknown', 'mfa', { code: '1234' })).body.error.code, 'connect_session.not_found');
      assert.equal((await step(id, 'mfa', { code: '1234' })).body.error.code, 'connect_session.wrong_step');
      assert.equal((await signIn(id)).body.step, 'done', 'the refusals left the session where it was');
    });

    test('a sandbox without a default application has no app_default for the widget either', async () => {
      const hosted = testApp({ ...appOptions(await kind.location()), defaultApplication: false });
      try {
        const refused = await hosted.call('POST', '/sandbox/connect/sessions', { json: { application_id: 'app_default' } });
        assert.deepEqual([refused.status, refused.body.error.code], [404, 'application.not_found']);
        const own = (await hosted.call('POST', '/sandbox/applications', { json: {} })).body.application.id;
        assert.equal((await hosted.call('POST', '/sandbox/connect/sessions', { json: { application_id: own } })).status, 201);
      } finally {
        await hosted.close();
      }
    });

    test('a session expires 30 minutes after it began', async () => {
      const id = (await start({})).body.id as string;
      now += CONNECT_SESSION_LIFETIME_MS;
      try {
        const late = await signIn(id);
        assert.deepEqual([late.status, late.body.error.code], [422, 'connect_session.expired']);
      } finally {
        now = Date.now();
      }
    });
  });
}
