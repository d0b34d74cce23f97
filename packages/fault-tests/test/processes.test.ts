// Two server processes on one PostgreSQL database under concurrent idempotent payments: each Idempotency-Key is
// sent to both processes at the same moment and makes exactly one payment (one answer made it, the other replays
// it); and every read through either process sees every payment acknowledged before the read began (read-your-
// writes across processes, whatever either keeps: a replayed read must not be stale). At the end the balances are
// debited by exactly the payments made.
import assert from 'node:assert/strict';
import { afterAll, beforeAll, test } from 'vitest';
import { testPostgres } from '../../server/test/helpers/postgres.ts';
import { describeUnless } from '../../server/test/helpers/stores.ts';
import { type Caller, callerOf, type Enrolled, enroll, payee, type Reply } from '../src/api.ts';
import { type ServerProcess, startServerProcess } from '../src/server-process.ts';
import { tally } from '../src/tally.ts';

const WORKERS = 4;
const KEYS_PER_WORKER = 10;
const AMOUNT_CENTS = 321;

const postgres = await testPostgres();
afterAll(() => postgres.stop());

const cents = (amount: string) => Math.round(Number(amount) * 100);

describeUnless(postgres.skip, 'two server processes on one PostgreSQL database', () => {
  let processes: [ServerProcess, ServerProcess];
  let via: [Caller, Caller];
  let enrolled: Enrolled;
  let ledgerBefore: number;
  let availableBefore: number;
  /** Payment ids in the order their 202 came back. */
  const acknowledged: string[] = [];

  beforeAll(async () => {
    const url = await postgres.database(true);
    // Both at once on an empty database: one migrates, the other waits for it. Behind a load balancer every
    // process has the same public URL: links do not depend on which one answers.
    const env = { PUBLIC_URL: 'http://sandbox.test' };
    processes = await Promise.all([startServerProcess({ url }, env), startServerProcess({ url }, env)]);
    via = [callerOf(processes[0].url), callerOf(processes[1].url)];
    enrolled = await enroll(via[0]);
    const balances = await via[1]('GET', `/accounts/${enrolled.checking}/balances`, { token: enrolled.token, unchecked: false });
    ledgerBefore = cents(balances.body.ledger);
    availableBefore = cents(balances.body.available);
  });
  afterAll(() => Promise.all(processes?.map((server) => server.stop()) ?? []));

  const token = () => enrolled.token;
  const pay = (call: Caller, key: string) =>
    call('POST', `/accounts/${enrolled.checking}/payments`, {
      token: token(),
      json: { amount: (AMOUNT_CENTS / 100).toFixed(2), memo: key, payee },
      headers: { 'idempotency-key': key },
      unchecked: false,
    });

  test(`${WORKERS * KEYS_PER_WORKER} keys, each sent to both processes at once, while both are read: one payment each, every read up to date`, async () => {
    const worker = async (id: number) => {
      for (let i = 0; i < KEYS_PER_WORKER; i++) {
        const key = `two-processes-${id}-${i}`;
        const replies: Reply[] = await Promise.all(via.map((call) => pay(call, key)));
        for (const reply of replies) assert.equal(reply.status, 202, `${key}: ${reply.text}`);
        assert.equal(replies[0]!.body.id, replies[1]!.body.id, `${key} made two payments`);
        const made = replies.filter((reply) => reply.headers.get('idempotent-replayed') !== 'true');
        assert.equal(made.length, 1, `${key}: ${made.length} answers say they made the payment`);
        acknowledged.push(replies[0]!.body.id);
        tally.twoProcessPayments++;
        // Read through the process that replayed the key (the other made the payment), and through the other one.
        const maker = replies.indexOf(made[0]!);
        for (const reader of [1 - maker, maker]) await assertUpToDate(via[reader]!, replies[0]!.body);
      }
    };
    /** Everything acknowledged before this read began is in what it reads. */
    const assertUpToDate = async (call: Caller, payment: { id: string }) => {
      const known = [...acknowledged];
      const [one, list, balances] = await Promise.all([
        call('GET', `/accounts/${enrolled.checking}/payments/${payment.id}`, { token: token(), unchecked: false }),
        call('GET', `/accounts/${enrolled.checking}/payments`, { token: token(), unchecked: false }),
        call('GET', `/accounts/${enrolled.checking}/balances`, { token: token(), unchecked: false }),
      ]);
      assert.deepEqual(one.body, payment);
      const listed = new Set((list.body as { id: string }[]).map((listedPayment) => listedPayment.id));
      for (const id of known) assert.ok(listed.has(id), `payment ${id}, acknowledged before the read, is not listed`);
      assert.ok(cents(balances.body.ledger) <= ledgerBefore - known.length * AMOUNT_CENTS, `a stale ledger: ${balances.text}`);
      tally.twoProcessReads += 3;
    };
    await Promise.all(Array.from({ length: WORKERS }, (_, id) => worker(id)));
    for (const server of processes) assert.deepEqual(server.errors(), []);
  });

  test('the balances are debited by exactly the payments made, read through either process', async () => {
    const debited = WORKERS * KEYS_PER_WORKER * AMOUNT_CENTS;
    for (const call of via) {
      const balances = await call('GET', `/accounts/${enrolled.checking}/balances`, { token: token(), unchecked: false });
      assert.equal(cents(balances.body.ledger), ledgerBefore - debited);
      assert.equal(cents(balances.body.available), availableBefore - debited);
      const payments = (await call('GET', `/accounts/${enrolled.checking}/payments`, { token: token(), unchecked: false })).body as { id: string }[];
      assert.deepEqual(payments.map((payment) => payment.id).sort(), [...acknowledged].sort());
      const transactions = (await call('GET', `/accounts/${enrolled.checking}/transactions?count=10000`, { token: token(), unchecked: false })).body;
      assert.equal(transactions.filter((txn: { amount: string }) => txn.amount === `-${(AMOUNT_CENTS / 100).toFixed(2)}`).length, acknowledged.length);
    }
  });
});
