// Who reaches what on a running server, as it is deployed: over HTTPS with a client CA (the certificates made with
// openssl; over HTTP without it, the live-token part then skipped), on SQLite and PostgreSQL.
//
// Isolation between applications: two applications, each with an enrollment, a webhook receiver, a payment made
// with the same Idempotency-Key, an event and its delivery, an MFA challenge and an enrollment widget session. The
// other application's token (or, for the widget, its application id) sees none of it: every id of the first one's
// enrollments, transactions, payments, deliveries, challenges and sessions, used with the second one's, answers 404 in
// the error shape, as an id that names nothing does (nothing tells that it exists), and changes nothing the first one
// reads (accounts, balances, transactions, payments, webhook settings and secrets, deliveries, clock, its challenge,
// events received); its request log shows none of the first one's requests.
//
// Live tokens need a client certificate: with the CA's certificate a live token is served; without one it answers
// 400 bad_request; with a certificate another CA signed, 400 too; and that holds for every request in turn, a read
// the server keeps and replays included (a replay needs this connection's certificate too).
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { skipWhenMissing } from '@aggregation/test-support';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { type Certificates, certificates, type HttpsReply, hasOpenssl, httpsCall, type KeyPair } from '../../server/test/helpers/certificates.ts';
import { assertContract, eventually, type Receiver, receiver } from '../../server/test/helpers/harness.ts';
import { describeUnless, storeKinds } from '../../server/test/helpers/stores.ts';
import {
  assertRefused,
  basic,
  type Caller,
  callerOf,
  createApplication,
  type Enrolled,
  enroll,
  fetchTrusting,
  payee,
  type Reply,
  snapshot,
} from '../src/api.ts';
import { type ServerProcess, startServerProcess } from '../src/server-process.ts';
import { tally } from '../src/tally.ts';

/** One application's enrollment and what it made. */
interface Tenant {
  key: string;
  applicationId: string;
  enrolled: Enrolled;
  /** An MFA challenge of its payment, kept under its own key. */
  connectToken: string;
  /** An enrollment widget session of its application, at its first step. */
  sessionId: string;
  hook: Receiver;
  secrets: string[];
  paymentId: string;
  transactionId: string;
  eventId: string;
  deliveryId: string;
}

/** Both use this key for their payment: each must get its own. */
const SHARED_KEY = 'isolation-shared-key';
const payment = { amount: '1.25', memo: 'isolation', payee };

interface Intrusion {
  name: string;
  /** What the intruder's token is answered (404 unless said): the answer to an id that does not exist. */
  status?: number;
  send(call: Caller, victim: Tenant, intruder: Tenant): Promise<Reply>;
}

const as = (intruder: Tenant) => ({ token: intruder.enrolled.token });
const intrusions: Intrusion[] = [
  { name: "reads the victim's account", send: (call, v, i) => call('GET', `/accounts/${v.enrolled.checking}`, as(i)) },
  { name: "reads the victim's balances", send: (call, v, i) => call('GET', `/accounts/${v.enrolled.checking}/balances`, as(i)) },
  { name: "reads the victim's account details", send: (call, v, i) => call('GET', `/accounts/${v.enrolled.checking}/details`, as(i)) },
  { name: "lists the victim's transactions", send: (call, v, i) => call('GET', `/accounts/${v.enrolled.checking}/transactions`, as(i)) },
  {
    name: "reads the victim's transaction",
    send: (call, v, i) => call('GET', `/accounts/${v.enrolled.checking}/transactions/${v.transactionId}`, as(i)),
  },
  {
    name: "reads the victim's transaction under its own account",
    send: (call, v, i) => call('GET', `/accounts/${i.enrolled.checking}/transactions/${v.transactionId}`, as(i)),
  },
  {
    name: "pages its own transactions from the victim's transaction",
    status: 422,
    send: (call, v, i) => call('GET', `/accounts/${i.enrolled.checking}/transactions?from_id=${v.transactionId}`, as(i)),
  },
  { name: "lists the victim's payments", send: (call, v, i) => call('GET', `/accounts/${v.enrolled.checking}/payments`, as(i)) },
  { name: "reads the victim's payment", send: (call, v, i) => call('GET', `/accounts/${v.enrolled.checking}/payments/${v.paymentId}`, as(i)) },
  {
    name: "reads the victim's payment under its own account",
    send: (call, v, i) => call('GET', `/accounts/${i.enrolled.checking}/payments/${v.paymentId}`, as(i)),
  },
  {
    name: "pays from the victim's account with the victim's Idempotency-Key",
    send: (call, v, i) =>
      call('POST', `/accounts/${v.enrolled.checking}/payments`, { ...as(i), json: payment, headers: { 'idempotency-key': SHARED_KEY } }),
  },
  {
    name: "adds a payee to the victim's account",
    send: (call, v, i) => call('POST', `/accounts/${v.enrolled.checking}/payees`, { ...as(i), json: payee }),
  },
  { name: "deletes the victim's account", send: (call, v, i) => call('DELETE', `/accounts/${v.enrolled.checking}`, as(i)) },
  { name: "closes the victim's account", send: (call, v, i) => call('POST', `/sandbox/accounts/${v.enrolled.checking}/close`, { ...as(i), json: {} }) },
  {
    name: "redelivers the victim's delivery",
    send: (call, v, i) => call('POST', `/sandbox/webhook/deliveries/${v.deliveryId}/redeliver`, { ...as(i), json: {} }),
  },
  { name: "reads the victim's MFA challenge", send: (call, v, i) => call('GET', `/sandbox/connect_tokens/${v.connectToken}`, as(i)) },
  { name: "approves the victim's MFA challenge", send: (call, v, i) => call('POST', `/sandbox/connect_tokens/${v.connectToken}/approve`, as(i)) },
  {
    name: "opens the enrollment widget on the victim's MFA challenge",
    send: (call, v, i) => call('POST', '/sandbox/connect/sessions', { json: { application_id: i.applicationId, connect_token: v.connectToken } }),
  },
  {
    name: "opens the enrollment widget to reconnect the victim's enrollment",
    send: (call, v, i) =>
      call('POST', '/sandbox/connect/sessions', { json: { application_id: i.applicationId, enrollment_id: v.enrolled.enrollmentId } }),
  },
  {
    name: "signs in on the victim's widget session with its own application id",
    send: (call, v, i) =>
      call('POST', `/sandbox/connect/sessions/${v.sessionId}/credentials`, {
        json: { application_id: i.applicationId, institution_id: 'chase', username: 'username', password: 'password' },
      }),
  },
  {
    name: "uses the victim's application key as a token",
    status: 403,
    send: (call, v) => call('GET', '/accounts', { headers: { authorization: basic(v.key) } }),
  },
];

/** The victim's ids changed at their end: ids of the same form that name nothing. */
const ghostOf = (tenant: Tenant): Tenant => {
  const ghost = (id: string) => `${id.slice(0, -4)}zzzz`;
  return {
    ...tenant,
    key: ghost(tenant.key),
    paymentId: ghost(tenant.paymentId),
    transactionId: ghost(tenant.transactionId),
    deliveryId: ghost(tenant.deliveryId),
    connectToken: ghost(tenant.connectToken),
    sessionId: ghost(tenant.sessionId),
    enrolled: { ...tenant.enrolled, checking: ghost(tenant.enrolled.checking), enrollmentId: ghost(tenant.enrolled.enrollmentId) },
  };
};
/** What a refusal tells, apart from the ids it names: the same for another's id as for an id that names nothing. */
const told = (reply: Reply) => {
  const { request_id: _, ...error } = reply.body?.error ?? {};
  return JSON.parse(JSON.stringify({ status: reply.status, ...error }).replace(/\b[a-z]{2,8}_[a-z0-9_]{12,}\b/g, '<id>'));
};

/** Rounds of reads with and without the client certificate. */
const ROUNDS = 3;

const noOpenssl = skipWhenMissing('HTTPS with a client CA', !hasOpenssl() && 'openssl is not installed');
const kinds = await storeKinds();
let dir: string | undefined;
let certs: Certificates | undefined;
beforeAll(() => {
  if (noOpenssl) return;
  dir = mkdtempSync(join(tmpdir(), 'fault-tls-'));
  certs = certificates(dir);
});
afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

for (const kind of kinds) {
  describeUnless(kind.skip, `access on ${kind.name}`, () => {
    let server: ServerProcess;
    let send: (request: Request) => Promise<Response> = fetch;
    let closeSend = async (): Promise<void> => undefined;
    let call: Caller;

    beforeAll(async () => {
      const tls = certs && { TLS_KEY: certs.file('server.key'), TLS_CERT: certs.file('server.crt'), TLS_CLIENT_CA: certs.file('ca.crt') };
      server = await startServerProcess(await kind.location(), { ...tls, LIVE_ENROLLMENT: 'on' });
      if (certs) ({ send, close: closeSend } = fetchTrusting(certs.ca));
      call = callerOf(server.url, send);
    });
    afterAll(async () => {
      await server?.stop();
      await closeSend();
    });

    describe('isolation between applications', () => {
      let victim: Tenant;
      let intruder: Tenant;
      /** What the victim's token reads, and what its receiver got, before each case. */
      let current: unknown;

      const tenant = async (): Promise<Tenant> => {
        const { key, id: applicationId } = await createApplication(call);
        const enrolled = await enroll(call, 'username', key);
        const { token, checking } = enrolled;
        const made = { key, applicationId, enrolled, secrets: [] as string[] } as Tenant;
        made.hook = await receiver(() => made.secrets);
        const set = await call('PUT', '/sandbox/webhook', { token, json: { url: made.hook.url }, unchecked: false });
        assert.equal(set.status, 200, set.text);
        made.secrets = (set.body.secrets as { secret: string }[]).map((secret) => secret.secret);
        const paid = await call('POST', `/accounts/${checking}/payments`, {
          token,
          json: payment,
          headers: { 'idempotency-key': SHARED_KEY },
          unchecked: false,
        });
        assert.equal(paid.status, 202, paid.text);
        assert.equal(paid.headers.get('idempotent-replayed'), null, "the other application's key replayed its payment");
        made.paymentId = paid.body.id;
        made.transactionId = (await call('GET', `/accounts/${checking}/transactions?count=1`, { token, unchecked: false })).body[0].id;
        const fired = await call('POST', '/sandbox/events', { token, json: { type: 'webhook.test' }, unchecked: false });
        assert.equal(fired.status, 202, fired.text);
        made.eventId = fired.body.id;
        await made.hook.waitFor(1, (event) => event.id === made.eventId);
        let deliveries: { id: string; event_id: string; status: string }[] = [];
        await eventually(async () => {
          deliveries = (await call('GET', '/sandbox/webhook/deliveries', { token, unchecked: false })).body;
          return deliveries.some((delivery) => delivery.event_id === made.eventId && delivery.status === 'delivered');
        });
        made.deliveryId = deliveries.find((delivery) => delivery.event_id === made.eventId)!.id;
        const challenged = await call('POST', `/accounts/${checking}/payments`, {
          token,
          json: { ...payment, memo: 'mfa' },
          headers: { 'idempotency-key': `${SHARED_KEY}-mfa` },
          unchecked: false,
        });
        assert.equal(challenged.status, 200, challenged.text);
        made.connectToken = challenged.body.connect_token;
        const session = await call('POST', '/sandbox/connect/sessions', { json: { application_id: applicationId }, unchecked: false });
        assert.equal(session.status, 201, session.text);
        made.sessionId = session.body.id;
        return made;
      };
      /** The distinct events a receiver got: delivery is at least once (a retry after a slow answer sends one again). */
      const receivedIds = (tenant: Tenant) => [...new Set(tenant.hook.events.map((received) => received.event.id))];
      const victimReads = async () => ({
        reads: await snapshot(call, victim.enrolled),
        received: receivedIds(victim),
        challenge: (await call('GET', `/sandbox/connect_tokens/${victim.connectToken}`, { token: victim.enrolled.token, unchecked: false })).body,
      });

      beforeAll(async () => {
        victim = await tenant();
        intruder = await tenant();
        current = await victimReads();
      });
      afterAll(async () => {
        await Promise.all([victim?.hook.close(), intruder?.hook.close()]);
      });

      test('each sees only its own enrollments, webhook settings, secrets, deliveries, events and payments', async () => {
        for (const [self, other] of [
          [victim, intruder],
          [intruder, victim],
        ] as const) {
          const read = async (path: string) => (await call('GET', path, { token: self.enrolled.token, unchecked: false })).body;
          const accounts = (await read('/accounts')) as { id: string }[];
          assert.deepEqual(accounts.map((account) => account.id).sort(), [...self.enrolled.accounts].sort());
          const settings = await read('/sandbox/webhook');
          assert.equal(settings.url, self.hook.url);
          assert.deepEqual(
            settings.secrets.map((secret: { secret: string }) => secret.secret),
            self.secrets,
          );
          assert.ok(!self.secrets.some((secret) => other.secrets.includes(secret)), 'the applications share a secret');
          const deliveries = (await read('/sandbox/webhook/deliveries')) as { id: string; event_id: string }[];
          assert.ok(deliveries.some((delivery) => delivery.id === self.deliveryId));
          assert.ok(
            !deliveries.some((delivery) => delivery.id === other.deliveryId || delivery.event_id === other.eventId),
            "the other's delivery is listed",
          );
          // The same Idempotency-Key made a payment for each.
          const payments = (await read(`/accounts/${self.enrolled.checking}/payments`)) as { id: string }[];
          assert.deepEqual(
            payments.map((made) => made.id),
            [self.paymentId],
          );
          assert.notEqual(self.paymentId, other.paymentId);
          // Each receiver got its own event only, signed with its own secrets (a receiver refuses anything else).
          assert.deepEqual(receivedIds(self), [self.eventId]);
          assert.deepEqual(self.hook.rejected, []);
        }
      });

      for (const intrusion of intrusions) {
        test(`the other application's token ${intrusion.name}: ${intrusion.status ?? 404}, nothing changed`, async () => {
          tally.intrusions++;
          const errorsBefore = server.errors().length;
          const reply = await intrusion.send(call, victim, intruder);
          const previous = current;
          current = await victimReads();
          assertRefused(reply.status, reply.body, reply.text, intrusion.name);
          assert.equal(reply.status, intrusion.status ?? 404, `${intrusion.name}: ${reply.text}`);
          assert.deepEqual(current, previous, `${intrusion.name} changed what the victim reads`);
          assert.deepEqual(told(await intrusion.send(call, ghostOf(victim), intruder)), told(reply), "another's id is told apart from no id");
          assert.deepEqual(server.errors().slice(errorsBefore), []);
        });
      }

      test("the other application's own writes (webhook URL, secrets, events, clock, closing its account) change nothing of the first's", async () => {
        const token = intruder.enrolled.token;
        const writes = [
          await call('PUT', '/sandbox/webhook', { token, json: { url: `${intruder.hook.url}?moved` } }),
          await call('POST', '/sandbox/webhook/secrets', { token, json: { expire_current_at: new Date(Date.now() - 1_000).toISOString() } }),
          await call('POST', '/sandbox/events', { token, json: { type: 'webhook.test' } }),
          await call('POST', '/sandbox/clock/advance', { token, json: { seconds: 86_400 } }),
          await call('POST', `/sandbox/accounts/${intruder.enrolled.checking}/close`, { token, json: {} }),
        ];
        for (const write of writes) assert.ok(write.status < 300, write.text);
        const previous = current;
        current = await victimReads();
        assert.deepEqual(current, previous);
      });

      test("the request log shows each token its own requests, none of the other's", async () => {
        const stream = async (tenant: Tenant) => {
          const response = await send(
            new Request(`${server.url}/sandbox/logs?timeout_seconds=2`, { headers: { authorization: basic(tenant.enrolled.token) } }),
          );
          assert.equal(response.status, 200);
          return response;
        };
        const [victimLog, intruderLog] = await Promise.all([stream(victim), stream(intruder)]);
        const made = new Map<Tenant, string>();
        for (const tenant of [victim, intruder]) {
          const reply = await call('GET', '/accounts', { token: tenant.enrolled.token });
          assert.equal(reply.status, 200);
          made.set(tenant, reply.headers.get('request-id')!);
        }
        const requestIds = async (response: Response) =>
          (await response.text())
            .split('\n')
            .filter(Boolean)
            .map((line) => JSON.parse(line).request_id as string);
        const [seenByVictim, seenByIntruder] = await Promise.all([requestIds(victimLog), requestIds(intruderLog)]);
        assert.deepEqual(seenByVictim, [made.get(victim)]);
        assert.deepEqual(seenByIntruder, [made.get(intruder)]);
      });
    });

    describe.skipIf(noOpenssl)('live tokens need a client certificate', () => {
      let liveToken: string;
      let sandboxToken: string;

      beforeAll(async () => {
        liveToken = /^Live token: (\S+)/.exec(server.output.find((line) => line.startsWith('Live token: ')) ?? '')?.[1] ?? '';
        assert.match(liveToken, /^token_/, server.output.join('\n'));
        sandboxToken = (await enroll(call)).token;
      });

      const get = async (path: string, token: string, client?: KeyPair): Promise<HttpsReply> => {
        tally.requests++;
        const reply = await httpsCall(`${server.url}${path}`, { ca: certs!.ca, token, client });
        assertContract('GET', path, reply);
        return reply;
      };

      test(`${ROUNDS} rounds of two reads: with the CA's certificate 200, without one or with another CA's 400 bad_request`, async () => {
        const accounts = await get('/accounts', liveToken, certs!.client);
        const paths = ['/accounts', `/accounts/${accounts.body[0].id}/balances`];
        for (let round = 0; round < ROUNDS; round++) {
          for (const path of paths) {
            const served = await get(path, liveToken, certs!.client);
            assert.equal(served.status, 200, `${path} with the certificate: ${served.text}`);
            for (const [what, client] of [
              ['no certificate', undefined],
              ["another CA's certificate", certs!.rogue],
            ] as const) {
              const refused = await get(path, liveToken, client);
              assertRefused(refused.status, refused.body, refused.text, `${path} with ${what}`);
              assert.equal(refused.status, 400, `${path} with ${what}: ${refused.text}`);
              assert.equal(refused.body.error.code, 'bad_request');
              tally.certificateRefusals++;
            }
          }
        }
        assert.deepEqual(server.errors(), []);
      });

      test('sandbox tokens need no certificate; the control API refuses live tokens', async () => {
        assert.equal((await get('/accounts', sandboxToken)).status, 200);
        const refused = await get('/sandbox/clock', liveToken, certs!.client);
        assert.equal(refused.status, 403);
        assert.equal(refused.body.error.code, 'sandbox.live_token');
      });
    });
  });
}
