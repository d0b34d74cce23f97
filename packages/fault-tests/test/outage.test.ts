// A PostgreSQL outage under load: the database is stopped for a few seconds while payments and
// reads keep arriving. Every answer is a success or a 5xx in the error shape (never a hang or a
// crash), the server recovers by itself once the database is back, and no acknowledged payment is
// lost. Needs a PostgreSQL server this suite may stop: its own throwaway cluster.
import assert from 'node:assert/strict';
import { afterAll, beforeAll, test } from 'vitest';
import { testPostgres } from '../../server/test/helpers/postgres.ts';
import { describeUnless } from '../../server/test/helpers/stores.ts';
import { type Caller, callerOf, type Enrolled, enroll, errorShapeProblems, payee, type Reply } from '../src/api.ts';
import { type ServerProcess, startServerProcess } from '../src/server-process.ts';
import { tally } from '../src/tally.ts';

const OUTAGE_MS = 3_000;
const WORKERS = 4;

// The outage stops the PostgreSQL server: a cluster of its own.
const postgres = await testPostgres({ ownCluster: true });
afterAll(() => postgres.stop());
const skip = postgres.skip || (postgres.outage ? false : 'the PostgreSQL server is not ours to stop (TEST_DATABASE_URL or DATABASE_URL is set)');

describeUnless(skip, 'a PostgreSQL outage under load', () => {
  let server: ServerProcess;
  let call: Caller;
  let enrolled: Enrolled;
  const acknowledged = new Map<string, string>();
  const attempted = new Set<string>();
  const duringOutage: Reply[] = [];

  beforeAll(async () => {
    server = await startServerProcess({ url: await postgres.database() });
    call = callerOf(server.url);
    enrolled = await enroll(call);
  });
  afterAll(() => server?.stop());

  const pay = (key: string) =>
    call('POST', `/accounts/${enrolled.checking}/payments`, {
      token: enrolled.token,
      json: { amount: '2.50', memo: key, payee },
      headers: { 'idempotency-key': key },
    });

  test(`the database stopped for ${OUTAGE_MS / 1000} s under load: successes or 5xx in the error shape, then recovery`, async () => {
    let phase: 'before' | 'outage' | 'after' = 'before';
    let stopping = false;
    const worker = async (id: number) => {
      for (let i = 0; !stopping; i++) {
        const key = `outage-${id}-${i}`;
        attempted.add(key);
        const started = phase;
        const [paid, read] = await Promise.all([pay(key), call('GET', `/accounts/${enrolled.checking}/balances`, { token: enrolled.token })]).catch(
          (error: Error) => {
            throw new Error(`${error.message}; the server: ${server.errors().join('\n') || 'still running'}`, { cause: error });
          },
        );
        for (const reply of [paid, read]) {
          if (reply.status >= 500) {
            assert.deepEqual(errorShapeProblems(reply.body), [], `a ${reply.status} during the outage is not in the error shape: ${reply.text}`);
            if (started === 'outage') duringOutage.push(reply);
          } else assert.ok(reply.status < 300, `${reply.status}: ${reply.text}`);
        }
        if (paid.status === 202) acknowledged.set(key, paid.body.id);
        if (started === 'outage') tally.outageRequests += 2;
        // Keep the load bounded while requests fail fast.
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    };
    const workers = Array.from({ length: WORKERS }, (_, id) => worker(id));
    try {
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      postgres.outage!.stop();
      phase = 'outage';
      await new Promise((resolve) => setTimeout(resolve, OUTAGE_MS));
      phase = 'after';
      postgres.outage!.start();
      // Recovers by itself: reads answer 200 again, however long a loaded machine takes.
      for (;;) {
        const reply = await call('GET', `/accounts/${enrolled.checking}/balances`, { token: enrolled.token });
        if (reply.status === 200) break;
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    } finally {
      stopping = true;
      await Promise.all(workers);
    }
    tally.outageRefusals += duringOutage.length;
    assert.ok(duringOutage.length > 0, 'no request was refused during the outage');
  });

  test('no acknowledged payment is lost, and each key makes one payment', async () => {
    const stored = await call('GET', `/accounts/${enrolled.checking}/payments`, { token: enrolled.token });
    const ids = new Set((stored.body as { id: string }[]).map((payment) => payment.id));
    for (const id of acknowledged.values()) assert.ok(ids.has(id), `acknowledged payment ${id} was lost`);
    for (const key of attempted) {
      const retried = await pay(key);
      assert.equal(retried.status, 202, retried.text);
      if (acknowledged.has(key)) assert.equal(retried.body.id, acknowledged.get(key));
    }
    const afterRetries = await call('GET', `/accounts/${enrolled.checking}/payments`, { token: enrolled.token });
    assert.equal(afterRetries.body.length, attempted.size);
  });

  test('during the outage the answer is 503 service_unavailable with Retry-After', () => {
    assert.ok(duringOutage.length > 0);
    for (const reply of duringOutage) {
      assert.equal(reply.status, 503, reply.text);
      assert.equal(reply.body.error.code, 'service_unavailable');
      assert.ok(Number(reply.headers.get('retry-after')) >= 1, 'Retry-After says when to come back');
    }
  });
});
