// The per-attempt timeout reaches a custom fetch as `init.signal` and as the Request's `signal`, and fails the attempt
// even when the fetch listens to neither. On Node's own fetch, the Node entry times attempts out with undici's
// headers timeout instead, and gives the fetch no signal but the caller's.
import assert from 'node:assert/strict';
import { describe, it, vi } from 'vitest';
import { ConnectionError, createClient, type FetchLike } from '../src/index.ts';
import { createClient as createNodeClient } from '../src/node.ts';
import { json } from './helpers/fake-fetch.ts';
import { headersTimedOut, startLoopback } from './helpers/loopback.ts';

const token = 'test_token_abc';
const baseUrl = 'https://api.test';
const timedOut = (error: Error) =>
  error instanceof ConnectionError && /No response within 30 ms: GET https:\/\/api\.test\/accounts/.test(error.message);

/** Fails only when `signal` is aborted, with its reason. */
function waitForAbort(signal: AbortSignal | undefined): Promise<never> {
  return new Promise((_, reject) => signal?.addEventListener('abort', () => reject(signal.reason)));
}

/** A client whose single attempt times out after 30 ms, sending through `fetch`. */
function timingOut(fetch: FetchLike) {
  return createClient({ token, baseUrl, timeoutMs: 30, retry: false, fetch });
}

describe('per-attempt timeout', () => {
  it('aborts the signal a fetch is given in init, as the platform fetch takes it', async () => {
    const seen: AbortSignal[] = [];
    const client = timingOut((_request, init) => {
      seen.push(init!.signal!);
      return waitForAbort(init?.signal);
    });
    await assert.rejects(client.accounts.list(), timedOut);
    assert.equal(seen.length, 1);
    assert.equal(seen[0]?.aborted, true);
    assert.equal((seen[0]!.reason as DOMException).name, 'TimeoutError');
  });

  it("the Request's own signal is the same attempt signal", async () => {
    let request: Request | undefined;
    let given: AbortSignal | undefined;
    const client = timingOut((sent, init) => {
      request = sent;
      given = init?.signal;
      return waitForAbort(sent.signal);
    });
    await assert.rejects(client.accounts.list(), timedOut);
    assert.equal(request?.signal, given);
    assert.equal(request?.signal.aborted, true);
  });

  it('fails the attempt even when the fetch ignores every signal', async () => {
    let calls = 0;
    const client = createClient({
      token,
      baseUrl,
      timeoutMs: 30,
      retry: { sleep: async () => {} },
      fetch: () => (++calls === 1 ? new Promise<Response>(() => {}) : json([])),
    });
    assert.deepEqual(await client.accounts.list(), []);
    assert.equal(calls, 2);
  });

  it('a retry after a timeout is sent with a signal of its own', async () => {
    const signals: AbortSignal[] = [];
    const client = createClient({
      token,
      baseUrl,
      timeoutMs: 30,
      retry: { sleep: async () => {} },
      // Like the platform's fetch, fails at once on a signal that is already aborted.
      fetch: (_request, init) => {
        signals.push(init!.signal!);
        if (init?.signal?.aborted) return Promise.reject(init.signal.reason);
        return signals.length === 1 ? waitForAbort(init?.signal) : json([]);
      },
    });
    assert.deepEqual(await client.accounts.list(), []);
    assert.deepEqual(
      signals.map((signal) => signal.aborted),
      [true, false],
    );
  });

  it('a response within the timeout is not aborted afterwards, body included', async () => {
    let signal: AbortSignal | undefined;
    const client = createClient({
      token,
      baseUrl,
      timeoutMs: 30,
      fetch: (_request, init) => {
        signal = init?.signal;
        return json([{ id: 'acc_1' }]);
      },
    });
    assert.equal((await client.accounts.list()).length, 1);
    await new Promise((resolve) => setTimeout(resolve, 60));
    assert.equal(signal?.aborted, false);
  });

  it("the caller's signal aborts the attempt through both", async () => {
    const controller = new AbortController();
    const client = createClient({
      token,
      baseUrl,
      retry: false,
      fetch: (request, init) => Promise.race([waitForAbort(request.signal), waitForAbort(init?.signal)]),
    });
    const pending = client.accounts.list({ signal: controller.signal });
    controller.abort(new Error('stop'));
    await assert.rejects(pending, /stop/);
  });

  // The timeout is long enough for the request to reach the server on a loaded machine; the test's own timeout
  // bounds the wait for the connection to close.
  it('the global fetch closes the connection of a request that timed out', async (t) => {
    const server = await startLoopback();
    t.onTestFinished(server.close);
    const client = createClient({ token, baseUrl: server.origin, timeoutMs: 1_000, retry: false });
    const pending = client.accounts.list();
    assert.deepEqual(
      (await server.arrived()).map((arrival) => arrival.url),
      ['/accounts'],
    );
    await assert.rejects(pending, (error: Error) => error instanceof ConnectionError && /No response within 1000 ms/.test(error.message));
    await server.closed();
  });
});

describe("per-attempt timeout on Node's fetch (Node entry)", () => {
  // Undici checks its timeouts about every half second. A held request's timeout fires however loaded the machine;
  // the timeout is long enough for an attempt to reach the server, or an answer to come back, on a loaded one.
  const TIMEOUT_MS = 1_000;
  it('a request without an answer fails at its timeout, is retried, and each timed-out connection is closed', async (t) => {
    const server = await startLoopback();
    t.onTestFinished(server.close);
    const client = createNodeClient({ token, baseUrl: server.origin, timeoutMs: TIMEOUT_MS, retry: { maxRetries: 1, sleep: async () => {} } });
    await assert.rejects(client.accounts.list(), headersTimedOut(TIMEOUT_MS, `GET ${server.origin}/accounts`));
    assert.deepEqual(
      server.arrivals.map((arrival) => arrival.url),
      ['/accounts', '/accounts'],
    );
    await server.closed(2);
  });

  it('gives the fetch the URL and no signal, or only the caller’s', async (t) => {
    const server = await startLoopback((_request, response) => response.writeHead(200, { 'Content-Type': 'application/json' }).end('[]'));
    t.onTestFinished(server.close);
    // Calls through to the real fetch, noting the arguments; restored after the test.
    const fetch = vi.spyOn(globalThis, 'fetch');
    const client = createNodeClient({ token, baseUrl: server.origin });
    const caller = new AbortController();
    await client.accounts.list();
    await client.accounts.list({ signal: caller.signal });
    const calls = fetch.mock.calls;
    assert.equal(calls.length, 2);
    for (const [input, init] of calls) {
      assert.equal(input, `${server.origin}/accounts`);
      assert.ok((init as { dispatcher?: unknown }).dispatcher);
    }
    assert.equal(calls[0]![1]!.signal, undefined);
    assert.equal(calls[1]![1]!.signal, caller.signal);
  });

  it('a response that came in time is not cut off while its body is slow', async (t) => {
    // The body ends after a timeout applied to it would have fired: its timer, due earlier in this same process, runs
    // first however late both run.
    const server = await startLoopback((_request, response) => {
      response.writeHead(200, { 'Content-Type': 'application/json' }).write('[');
      setTimeout(() => response.end(']'), TIMEOUT_MS * 2);
    });
    t.onTestFinished(server.close);
    const client = createNodeClient({ token, baseUrl: server.origin, timeoutMs: TIMEOUT_MS, retry: false });
    assert.deepEqual(await client.accounts.list(), []);
  });

  it("the caller's abort is final and closes the connection", async (t) => {
    const server = await startLoopback();
    t.onTestFinished(server.close);
    const client = createNodeClient({ token, baseUrl: server.origin, retry: { sleep: async () => {} } });
    const caller = new AbortController();
    const pending = client.accounts.list({ signal: caller.signal });
    await server.arrived();
    caller.abort(new Error('stop'));
    await assert.rejects(pending, /stop/);
    await server.closed();
    assert.equal(server.arrivals.length, 1);
  });

  it('timeoutMs: 0 leaves a slow answer be', async (t) => {
    const server = await startLoopback((_request, response) => {
      setTimeout(() => response.writeHead(200, { 'Content-Type': 'application/json' }).end('[]'), 1_200);
    });
    t.onTestFinished(server.close);
    const client = createNodeClient({ token, baseUrl: server.origin, timeoutMs: 0, retry: false });
    assert.deepEqual(await client.accounts.list(), []);
  });

  it('a payment retried after a timeout sends the same bytes, Idempotency-Key and Content-Length', async (t) => {
    // The first attempt is held until it times out; the retry is answered.
    const server = await startLoopback((_request, response, index) => {
      if (index > 0) response.writeHead(201, { 'Content-Type': 'application/json' }).end('{"id":"pay_1","status":"pending"}');
    });
    t.onTestFinished(server.close);
    const client = createNodeClient({ token, baseUrl: server.origin, timeoutMs: TIMEOUT_MS, retry: { sleep: async () => {} } });
    const payment = { amount: '25.00', memo: 'Dinner', payee: { scheme: 'zelle', address: 'bob@example.com' } } as const;
    const result = await client.payments.create('acc_1', payment, { checkAccount: false });
    assert.equal(result.kind, 'payment');
    const [first, retry] = server.arrivals;
    assert.equal(server.arrivals.length, 2);
    assert.deepEqual(JSON.parse(first!.body), payment);
    assert.equal(retry!.body, first!.body);
    for (const name of ['idempotency-key', 'content-type', 'content-length'] as const) {
      assert.ok(first!.headers[name], name);
      assert.equal(retry!.headers[name], first!.headers[name], name);
    }
    assert.equal(first!.headers['idempotency-key'], result.idempotencyKey);
  });

  it("in Node, the package's main entry is the Node entry", () => {
    // Resolved through the package's exports as an installed copy is (its built dist/): the `node` condition wins.
    assert.equal(import.meta.resolve('@aggregation/client'), import.meta.resolve('@aggregation/client/node'));
  });
});
