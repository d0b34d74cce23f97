// Webhooks of a running server, on SQLite and PostgreSQL; two servers per store, a local sandbox and a hosted one
// (WEBHOOK_PRIVATE_TARGETS=off), whose deliveries resolve host names from WEBHOOK_HOSTS.
//
// The target policy: setting a URL that names a refused address, in each spelling of the policy's table, answers
// 4xx in the error shape and changes nothing; a URL whose host name resolves to such an address is refused at
// delivery, with the delivery log saying why, and nothing is sent.
//
// Retries under a failing receiver: it answers 500, then 503, then breaks the connection, then recovers. Each
// attempt comes no sooner than the backoff after the one before (the server's retry settings scaled down, so that
// nothing sleeps long), is signed with exactly the secrets in force when it is sent (rotated between attempts), and
// the delivery log tells each failed attempt's reason before the next one is sent. The receiver holds each attempt
// while the test looks, so nothing depends on timing.
import assert from 'node:assert/strict';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { HANG_GUARD_MS } from '../../../vitest.shared.ts';
import { verifyWebhook } from '../../client/src/index.ts';
import { backoff, type RetryPolicy } from '../../server/src/webhooks/worker.ts';
import { eventually, type Receiver, receiver } from '../../server/test/helpers/harness.ts';
import { describeUnless, storeKinds } from '../../server/test/helpers/stores.ts';
import { resolvedAddress, type TargetSpelling, targetSpellings } from '../../server/test/helpers/target-spellings.ts';
import { assertRefused, type Caller, callerOf, createApplication, type Enrolled, enroll } from '../src/api.ts';
import { type Arrival, heldReceiver } from '../src/held-receiver.ts';
import { type ServerProcess, startServerProcess } from '../src/server-process.ts';
import { tally } from '../src/tally.ts';

/** The local server's retries: three failures and a success take every attempt. */
const retry: RetryPolicy = { baseDelayMs: 250, maxDelayMs: 2_000, maxAttempts: 4 };

interface Delivery {
  id: string;
  event_id: string;
  status: string;
  attempts: number;
  last_status: number | null;
  last_error: string | null;
  next_attempt_at: string | null;
}

/** The host name the servers' resolver answers with the spelling's address. */
const nameOf = (spelling: TargetSpelling) => `target-${targetSpellings.indexOf(spelling)}.example.test`;
const resolverTable = JSON.stringify({
  ...Object.fromEntries(targetSpellings.map((spelling) => [nameOf(spelling), resolvedAddress(spelling)])),
  'receiver.example.test': '127.0.0.1',
});

/** The webhook side of one enrollment's application on a server. */
function webhookClient(call: Caller, token: string) {
  const log = async () => (await call('GET', '/sandbox/webhook/deliveries', { token, unchecked: false })).body as Delivery[];
  return {
    setUrl: (url: string) => call('PUT', '/sandbox/webhook', { token, json: { url } }),
    settings: async () => (await call('GET', '/sandbox/webhook', { token, unchecked: false })).body,
    secrets: async () =>
      ((await call('GET', '/sandbox/webhook', { token, unchecked: false })).body.secrets as { secret: string }[]).map((s) => s.secret),
    async fire(): Promise<string> {
      const fired = await call('POST', '/sandbox/events', { token, json: { type: 'webhook.test' }, unchecked: false });
      assert.equal(fired.status, 202, fired.text);
      return fired.body.id;
    },
    log,
    /** The deliveries of `eventIds` once `done` holds for each, as the log shows them. */
    async when(eventIds: string[], done: (delivery: Delivery) => boolean): Promise<Delivery[]> {
      let found: Delivery[] = [];
      await eventually(async () => {
        found = (await log()).filter((delivery) => eventIds.includes(delivery.event_id));
        return found.length === eventIds.length && found.every(done);
      });
      return found;
    },
  };
}

const kinds = await storeKinds();

for (const kind of kinds) {
  describeUnless(kind.skip, `webhooks on ${kind.name}`, () => {
    const servers = {} as Record<'local' | 'hosted', ServerProcess>;

    beforeAll(async () => {
      // No attempt times out however loaded the machine: the held receiver keeps one waiting while the test looks at the
      // server, and an answer that comes is never late.
      const env = {
        WEBHOOK_HOSTS: resolverTable,
        WEBHOOK_RETRY_BASE_MS: String(retry.baseDelayMs),
        WEBHOOK_RETRY_MAX_MS: String(retry.maxDelayMs),
        WEBHOOK_TIMEOUT_MS: String(HANG_GUARD_MS),
      };
      [servers.local, servers.hosted] = await Promise.all([
        startServerProcess(await kind.location(), { ...env, WEBHOOK_RETRY_ATTEMPTS: String(retry.maxAttempts) }),
        startServerProcess(await kind.location(), { ...env, WEBHOOK_RETRY_ATTEMPTS: '1', WEBHOOK_PRIVATE_TARGETS: 'off' }),
      ]);
    });
    afterAll(async () => {
      await Promise.all(Object.values(servers).map((server) => server.stop()));
    });

    for (const policy of ['local', 'hosted'] as const) {
      const refused = targetSpellings.filter((spelling) => spelling[policy] === 'refused');
      describe(`the target policy of a ${policy} sandbox`, () => {
        let hooks: ReturnType<typeof webhookClient>;
        let hook: Receiver;
        let secrets: string[] = [];
        const port = () => new URL(hook.url).port;

        beforeAll(async () => {
          const call = callerOf(servers[policy].url);
          hooks = webhookClient(call, (await enroll(call)).token);
          hook = await receiver(() => secrets);
        });
        afterAll(() => hook?.close());

        test(`setting a URL naming each of the ${refused.length} refused spellings: 4xx in the error shape, the settings unchanged`, async () => {
          const before = await hooks.settings();
          for (const spelling of refused) {
            const url = `http://${spelling.host}:${port()}/webhooks`;
            const reply = await hooks.setUrl(url);
            assertRefused(reply.status, reply.body, reply.text, url);
            assert.equal(reply.body.error.code, 'webhook_url.refused', url);
            tally.refusedTargets++;
          }
          assert.deepEqual(await hooks.settings(), before);
        });

        test('a host name resolving to each refused spelling: the delivery fails, the log says why, nothing is sent', async () => {
          const sent = new Map<string, TargetSpelling>();
          for (const spelling of refused) {
            // A host name passes when set: its addresses are known only at delivery.
            const set = await hooks.setUrl(`http://${nameOf(spelling)}:${port()}/webhooks`);
            assert.equal(set.status, 200, set.text);
            sent.set(await hooks.fire(), spelling);
          }
          const log = await hooks.when([...sent.keys()], (delivery) => delivery.attempts >= 1);
          for (const delivery of log) {
            const spelling = sent.get(delivery.event_id)!;
            assert.equal(delivery.last_status, null, spelling.host);
            const reason = `refused: ${nameOf(spelling)} resolves to ${resolvedAddress(spelling)} `;
            assert.ok(delivery.last_error?.startsWith(reason), `${spelling.host}: ${delivery.last_error}`);
            tally.refusedDeliveries++;
          }
          assert.equal(hook.events.length + hook.rejected.length, 0, 'a refused delivery reached the receiver');
        });

        test(policy === 'local' ? 'a host name resolving to loopback is delivered' : 'a host name resolving to loopback is refused', async () => {
          const set = await hooks.setUrl(`http://receiver.example.test:${port()}/webhooks`);
          assert.equal(set.status, 200, set.text);
          secrets = (set.body.secrets as { secret: string }[]).map((secret) => secret.secret);
          const id = await hooks.fire();
          const [delivery] = await hooks.when([id], (entry) => entry.attempts >= 1);
          if (policy === 'local') {
            assert.equal(delivery!.status, 'delivered', delivery!.last_error ?? '');
            await hook.waitFor(1, (event) => event.id === id);
          } else {
            assert.match(delivery!.last_error ?? '', /^refused: receiver\.example\.test resolves to 127\.0\.0\.1 is a loopback address/);
          }
          assert.deepEqual(servers[policy].errors(), []);
        });
      });
    }

    describe('retries under a failing receiver, in an application of their own', () => {
      test('500, 503, a broken connection, then 204: spaced by the backoff, each signed with the secrets in force, each reason logged', async () => {
        const call = callerOf(servers.local.url);
        const enrolled: Enrolled = await enroll(call, 'username', (await createApplication(call)).key);
        const hooks = webhookClient(call, enrolled.token);
        const hook = await heldReceiver();
        try {
          const set = await hooks.setUrl(hook.url);
          assert.equal(set.status, 200, set.text);
          const rotate = async (expireCurrentAt: Date) => {
            const rotated = await call('POST', '/sandbox/webhook/secrets', {
              token: enrolled.token,
              json: { expire_current_at: expireCurrentAt.toISOString() },
              unchecked: false,
            });
            assert.equal(rotated.status, 201, rotated.text);
          };
          const failures: { answer: (arrival: Arrival) => void; logged: RegExp }[] = [
            { answer: (a) => a.answer(500, 'receiver down for maintenance'), logged: /^HTTP 500: receiver down for maintenance$/ },
            { answer: (a) => a.answer(503), logged: /^HTTP 503$/ },
            { answer: (a) => a.hangUp(), logged: /^connection (closed by the receiver|reset)$/ },
          ];
          // While the first attempt is held the secret is replaced at once; while the second is, a new one overlaps it.
          const rotations = [undefined, () => rotate(new Date(Date.now() - 1_000)), () => rotate(new Date(Date.now() + 3_600_000))];
          const eventId = await hooks.fire();
          let previous: { at: number; nextAttemptAt: number } | undefined;
          let expired: string[] = [];

          for (let attempt = 1; attempt <= failures.length + 1; attempt++) {
            const arrival = await hook.next();
            tally.webhookAttempts++;
            // Spaced by the backoff: the wait itself, and the next_attempt_at the log showed.
            if (previous) {
              const waited = arrival.at - previous.at;
              const delay = backoff(retry, attempt - 1);
              assert.ok(waited >= delay, `attempt ${attempt} came ${waited.toFixed(0)} ms after the last, before the backoff of ${delay} ms`);
              assert.ok(arrival.wallClock >= previous.nextAttemptAt, `attempt ${attempt} came before the next_attempt_at logged`);
            }
            // Signed with exactly the secrets in force now, one signature each, and not with one that expired.
            const secrets = await hooks.secrets();
            const signatures = arrival.signature.split(',').filter((part) => part.startsWith('v1='));
            assert.equal(signatures.length, secrets.length, `attempt ${attempt}: ${arrival.signature} for ${secrets.length} secrets`);
            for (const secret of secrets) assert.equal((await verifyWebhook(arrival.raw, arrival.signature, [secret])).id, eventId);
            for (const secret of expired) {
              await assert.rejects(verifyWebhook(arrival.raw, arrival.signature, [secret]), `attempt ${attempt} verifies with an expired secret`);
            }
            // The log has the last failed attempt's reason before this one is answered.
            const [logged] = await hooks.when([eventId], () => true);
            assert.equal(logged!.status, 'pending');
            assert.equal(logged!.attempts, attempt - 1);
            if (attempt > 1) assert.match(logged!.last_error ?? '', failures[attempt - 2]!.logged, `the reason of attempt ${attempt - 1}`);
            else assert.equal(logged!.last_error, null);

            const rotation = rotations[attempt];
            if (rotation) {
              const before = await hooks.secrets();
              await rotation();
              const after = await hooks.secrets();
              expired = [...expired, ...before.filter((secret) => !after.includes(secret))];
            }
            const failure = failures[attempt - 1];
            if (!failure) {
              arrival.answer(204);
              break;
            }
            const answeredAt = Date.now();
            failure.answer(arrival);
            const [after] = await hooks.when([eventId], (delivery) => delivery.attempts === attempt);
            // The next attempt is set the backoff after `attempt` failures from when the failure was recorded.
            const nextAttemptAt = Date.parse(after!.next_attempt_at!);
            const delay = backoff(retry, attempt);
            assert.ok(
              nextAttemptAt >= answeredAt + delay && nextAttemptAt <= Date.now() + delay,
              `next_attempt_at is not ${delay} ms after attempt ${attempt}`,
            );
            previous = { at: arrival.at, nextAttemptAt };
          }
          // Delivered on the last attempt, and not sent again.
          const [final] = await hooks.when([eventId], (delivery) => delivery.status === 'delivered');
          assert.equal(final!.attempts, failures.length + 1);
          assert.equal(final!.last_error, null);
          assert.equal(hook.waiting(), 0, 'sent again after a 204');
          assert.deepEqual(servers.local.errors(), []);
        } finally {
          await hook.close();
        }
      });
    });
  });
}
