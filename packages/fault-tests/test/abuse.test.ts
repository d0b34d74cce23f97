// Abuse of the unauthenticated and rate-limited surface, on SQLite and PostgreSQL: the rate limit
// cannot be dodged by varying what authentication ignores, and one enrollment of a huge history
// does not stall everybody else.
import assert from 'node:assert/strict';
import { afterAll, beforeAll, test } from 'vitest';
import { describeUnless, storeKinds } from '../../server/test/helpers/stores.ts';
import { assertRefused, type Caller, callerOf, type Enrolled, enroll } from '../src/api.ts';
import { type ServerProcess, startServerProcess } from '../src/server-process.ts';

const RATE = 5;
/** Three times the burst (twice the rate): a limit that holds refuses some of them. */
const ATTEMPTS = RATE * 6;

const kinds = await storeKinds();

for (const kind of kinds) {
  describeUnless(kind.skip, `abuse on ${kind.name}`, () => {
    let server: ServerProcess;
    let call: Caller;
    let enrolled: Enrolled;

    beforeAll(async () => {
      server = await startServerProcess(await kind.location(), { RATE_LIMIT: String(RATE) });
      call = callerOf(server.url);
      enrolled = await enroll(call);
    });
    afterAll(() => server?.kill());

    /** Waits until every bucket is full again (a burst of twice the rate refills in two seconds). */
    const refill = () => new Promise((resolve) => setTimeout(resolve, 2_100));

    /**
     * Sends `ATTEMPTS` requests at once (so that a slow machine cannot refill the bucket between them); answers the
     * 429s, each checked for its shape and Retry-After.
     */
    const limited = async (send: (attempt: number) => ReturnType<Caller>) => {
      const replies = await Promise.all(Array.from({ length: ATTEMPTS }, (_, attempt) => send(attempt)));
      const refused = replies.filter((reply) => reply.status === 429);
      for (const reply of refused) {
        assertRefused(reply.status, reply.body, reply.text, 'rate limited');
        assert.ok(Number(reply.headers.get('retry-after')) >= 1, 'a 429 says when to retry');
      }
      return refused.length;
    };

    test('the same credentials beyond the rate are refused with 429 and Retry-After', async () => {
      assert.ok((await limited(() => call('GET', '/accounts', { token: enrolled.token }))) > 0);
      await refill();
    });

    test('a token with a different password on each request (-u token:1, token:2, ...) is limited as one caller', async () => {
      const refused = await limited((attempt) =>
        call('GET', '/accounts', { headers: { authorization: `Basic ${Buffer.from(`${enrolled.token}:${attempt}`).toString('base64')}` } }),
      );
      assert.ok(refused > 0, `${ATTEMPTS} requests at once, none refused`);
      await refill();
    });

    test('unauthenticated enrollments with a junk Authorization header each time are limited by client address', async () => {
      // A wrong password is answered at once, with no history to write: the attempts reach the limit together however
      // loaded the machine is (enrollments that each write a history could be spread over long enough to refill it).
      const replies: number[] = [];
      const refused = await limited(async (attempt) => {
        const reply = await call('POST', '/sandbox/enrollments', {
          json: { username: 'username', password: 'not-the-password' },
          headers: { authorization: `junk-${attempt}` },
        });
        replies.push(reply.status);
        return reply;
      });
      assert.ok(replies.includes(401), `the attempts let through reached the enrollment: ${replies.join(', ')}`);
      assert.ok(refused > 0, `${ATTEMPTS} enrollments at once, none refused`);
      await refill();
    });

    // The server allows n up to 1,000,000 here (src/serve.ts), so the history is really being written.
    test('enrolling history.1000000 leaves other requests answered while the history is being written', async () => {
      let refusal: number | undefined;
      let hugeEnded = false;
      const huge = call('POST', '/sandbox/enrollments', { json: { username: 'history.1000000', password: 'password' } }).then(
        (answer) => {
          if (answer.status >= 400) refusal = answer.status;
        },
        () => undefined,
      );
      void huge.finally(() => {
        hugeEnded = true;
      });
      await new Promise((resolve) => setTimeout(resolve, 200));
      // Not how fast (a loaded machine slows every answer) but when: before the history is written, which a
      // server that blocks while writing it could not do.
      const institutions = await call('GET', '/institutions');
      const answeredWhileWriting = !hugeEnded;
      // Stop the work either way: the process is not reused after this test.
      await server.kill();
      assert.equal(refusal, undefined, 'the history was refused instead of being made');
      assert.equal(institutions.status, 200, institutions.text);
      assert.ok(answeredWhileWriting, 'GET /institutions was answered only once the history was written');
    });
  });
}
