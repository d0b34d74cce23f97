// kill -9 of the server under concurrent idempotent payments and event firing, then a restart on
// the same database; on PostgreSQL also kill -9 of the database's postmaster under the same load,
// then its restart: every acknowledged payment (202) is stored exactly once, retrying any request
// with its Idempotency-Key never makes a second payment, the balances are debited by exactly what
// was stored, and every acknowledged event reaches a loopback receiver.
import assert from 'node:assert/strict';
import type { StorageOptions } from '@aggregation/server';
import pMap from 'p-map';
import { afterAll, beforeAll, test } from 'vitest';
import { eventually, type Receiver, receiver } from '../../server/test/helpers/harness.ts';
import { describeUnless, storeKinds } from '../../server/test/helpers/stores.ts';
import { Acknowledged, eventsLost, paymentsLost } from '../src/acknowledged.ts';
import { type Caller, callerOf, type Enrolled, enroll, errorShapeProblems, payee, type Reply } from '../src/api.ts';
import { type ServerProcess, startServerProcess } from '../src/server-process.ts';
import { tally } from '../src/tally.ts';

const KILLS = 3;
const WORKERS = 6;
/** Acknowledgements to wait for in each life of the server before killing it (see lifeOf). */
const ACKS_PER_LIFE = 30;
const LIFE_MS = 5_000;
const AMOUNT_CENTS = 123;
/** How long the database stays down after its crash. */
const DATABASE_DOWN_MS = 1_500;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/**
 * One life of the server under load: until ACKS_PER_LIFE payments were acknowledged, or LIFE_MS passed once at least
 * one was (a loaded machine acknowledges fewer), so that every kill comes with acknowledged work in flight.
 */
async function lifeOf(acks: () => number): Promise<void> {
  const end = Date.now() + LIFE_MS;
  while (acks() < ACKS_PER_LIFE && (acks() === 0 || Date.now() < end)) await sleep(10);
}

// The crash test kills its PostgreSQL server: a cluster of its own.
const kinds = await storeKinds({ ownCluster: true });

for (const kind of kinds) {
  describeUnless(kind.skip, `kill -9 under load on ${kind.name}`, () => {
    let location: StorageOptions;
    let server: ServerProcess;
    let call: Caller;
    let enrolled: Enrolled;
    let hook: Receiver;
    let secrets: string[] = [];
    let ledgerBefore: number;
    let availableBefore: number;
    const attemptedKeys = new Set<string>();
    /** Each acknowledged payment's id by its Idempotency-Key; what was acknowledged, for the checks that none was lost. */
    const acknowledged = new Map<string, string>();
    const told = new Acknowledged();

    const start = async () => {
      server = await startServerProcess(location);
      call = callerOf(server.url);
    };
    const cents = (amount: string) => Math.round(Number(amount) * 100);
    const pay = (key: string) =>
      call('POST', `/accounts/${enrolled.checking}/payments`, {
        token: enrolled.token,
        json: { amount: (AMOUNT_CENTS / 100).toFixed(2), memo: key, payee },
        headers: { 'idempotency-key': key },
      });

    beforeAll(async () => {
      location = await kind.location(true);
      await start();
      enrolled = await enroll(call);
      hook = await receiver(() => secrets);
      const settings = await call('PUT', '/sandbox/webhook', { token: enrolled.token, json: { url: hook.url } });
      assert.equal(settings.status, 200, settings.text);
      secrets = settings.body.secrets.map((secret: { secret: string }) => secret.secret);
      const balances = await call('GET', `/accounts/${enrolled.checking}/balances`, { token: enrolled.token });
      ledgerBefore = cents(balances.body.ledger);
      availableBefore = cents(balances.body.available);
    });
    afterAll(async () => {
      await server?.stop();
      await hook?.close();
    });

    test(`${KILLS} kills during concurrent payments and events, each followed by a restart on the same database`, async () => {
      for (let life = 0; life < KILLS; life++) {
        let killing = false;
        let acks = 0;
        const worker = async (id: number) => {
          for (let i = 0; !killing; i++) {
            const key = `crash-${life}-${id}-${i}`;
            attemptedKeys.add(key);
            try {
              const [paid, fired] = await Promise.all([
                pay(key),
                call('POST', '/sandbox/events', { token: enrolled.token, json: { type: 'webhook.test' } }),
              ]);
              if (paid.status === 202) {
                acknowledged.set(key, paid.body.id);
                told.payment(enrolled.checking, paid.body.id);
                acks++;
              } else assert.fail(`payment ${key} answered ${paid.status}: ${paid.text}`);
              if (fired.status === 202) told.event(fired.body.id);
              else assert.fail(`event answered ${fired.status}: ${fired.text}`);
            } catch (error) {
              // The connection died with the server: not acknowledged, so the client may retry (below).
              if (!killing) throw error;
            }
          }
        };
        const workers = Array.from({ length: WORKERS }, (_, id) => worker(id));
        await lifeOf(() => acks);
        // Requests are in flight: new ones stop once the kill is under way.
        killing = true;
        await server.kill();
        tally.kills++;
        await Promise.all(workers);
        assert.deepEqual(server.errors(), [], 'the server logged unexpected errors before the kill');
        await start();
      }
    });

    /** How many errors the server had logged when its database crashed. */
    let errorsBeforeDatabaseCrash = Number.POSITIVE_INFINITY;
    // PostgreSQL only, and only the suite's own cluster: a server TEST_DATABASE_URL or DATABASE_URL names is not ours to kill.
    test.skipIf(kind.name !== 'postgres' || !kind.outage)(
      'kill -9 of the PostgreSQL postmaster under the same load, then its restart: 5xx in the error shape meanwhile, recovery by itself',
      async () => {
        const outage = kind.outage!;
        let stopping = false;
        let acks = 0;
        const refused: Reply[] = [];
        const worker = async (id: number) => {
          for (let i = 0; !stopping; i++) {
            const key = `database-crash-${id}-${i}`;
            attemptedKeys.add(key);
            const [paid, fired] = await Promise.all([
              pay(key),
              call('POST', '/sandbox/events', { token: enrolled.token, json: { type: 'webhook.test' } }),
            ]);
            for (const reply of [paid, fired]) {
              if (reply.status >= 500) {
                assert.deepEqual(errorShapeProblems(reply.body), [], `a ${reply.status} is not in the error shape: ${reply.text}`);
                refused.push(reply);
              } else assert.equal(reply.status, 202, reply.text);
            }
            if (paid.status === 202) {
              acknowledged.set(key, paid.body.id);
              told.payment(enrolled.checking, paid.body.id);
              acks++;
            }
            if (fired.status === 202) told.event(fired.body.id);
            // Bounded while the answers are fast refusals.
            if (paid.status >= 500) await sleep(20);
          }
        };
        const workers = Array.from({ length: WORKERS }, (_, id) => worker(id));
        try {
          await lifeOf(() => acks);
          errorsBeforeDatabaseCrash = server.errors().length;
          await outage.crash();
          tally.databaseCrashes++;
          await sleep(DATABASE_DOWN_MS);
          await outage.restart();
          // Recovers by itself: payments are acknowledged again, however long a loaded machine takes.
          const acksAtRestart = acks;
          while (acks === acksAtRestart) await sleep(50);
        } finally {
          stopping = true;
          await Promise.all(workers);
        }
        assert.ok(refused.length > 0, 'no request was refused while the database was down');
        tally.databaseCrashRefusals += refused.length;
      },
    );

    test('every acknowledged payment is stored once, and a retry with its key returns it rather than paying again', async () => {
      const stored = await call('GET', `/accounts/${enrolled.checking}/payments`, { token: enrolled.token });
      assert.equal(stored.status, 200, stored.text);
      const ids = (stored.body as { id: string }[]).map((payment) => payment.id);
      const { lost, listedTwice } = paymentsLost(told.payments.get(enrolled.checking) ?? [], ids);
      assert.deepEqual(listedTwice, [], 'a payment is listed twice');
      assert.deepEqual(lost, [], 'acknowledged payments were lost');
      tally.acknowledgedPayments += acknowledged.size;
      const acknowledgedIds = new Set(acknowledged.values());
      tally.storedPayments += ids.filter((id) => acknowledgedIds.has(id)).length;
      // A client retries what it never saw answered: each key makes one payment, whatever the crash left. The keys
      // are distinct, so they are retried WORKERS at a time, as the load sent them.
      await pMap(
        [...attemptedKeys],
        async (key) => {
          const retried = await pay(key);
          assert.equal(retried.status, 202, retried.text);
          if (acknowledged.has(key)) assert.equal(retried.body.id, acknowledged.get(key), `retrying ${key} paid again`);
        },
        { concurrency: WORKERS },
      );
      const afterRetries = await call('GET', `/accounts/${enrolled.checking}/payments`, { token: enrolled.token });
      assert.equal(afterRetries.body.length, attemptedKeys.size, 'each Idempotency-Key made exactly one payment');
    });

    test('the balances are debited by exactly the payments stored', async () => {
      const balances = await call('GET', `/accounts/${enrolled.checking}/balances`, { token: enrolled.token });
      const debited = attemptedKeys.size * AMOUNT_CENTS;
      assert.equal(cents(balances.body.ledger), ledgerBefore - debited);
      assert.equal(cents(balances.body.available), availableBefore - debited);
      const transactions = await call('GET', `/accounts/${enrolled.checking}/transactions?count=10000`, { token: enrolled.token });
      const debits = (transactions.body as { amount: string }[]).filter((txn) => txn.amount === `-${(AMOUNT_CENTS / 100).toFixed(2)}`);
      assert.equal(debits.length, attemptedKeys.size, 'one transaction per payment');
    });

    test('every acknowledged event is delivered', async () => {
      // At least once: an event sent just before a kill is sent again, so count distinct ids, not arrivals.
      const delivered = () => new Set(hook.events.map((received) => received.event.id as string));
      await eventually(() => eventsLost(told.events, delivered()).length === 0);
      const arrived = delivered();
      assert.deepEqual(hook.rejected, []);
      tally.acknowledgedEvents += told.events.size;
      tally.deliveredEvents += told.events.size - eventsLost(told.events, arrived).length;
      tally.eventsSentAgain += hook.events.length - arrived.size;
      // From the database's crash on, the server logs each failure to reach it (and answers 503); nothing else.
      const expected = (line: string, at: number) =>
        at >= errorsBeforeDatabaseCrash && line.startsWith('unexpected error: StoreUnavailable: PostgreSQL is unavailable');
      assert.deepEqual(
        server.errors().filter((line, at) => !expected(line, at)),
        [],
        'the server logged unexpected errors',
      );
    });
  });
}
