// The per-attempt timeout reaches the fetch as `init.signal` and as the Request's `signal`, and fails the attempt
// even when the fetch listens to neither.
import assert from 'node:assert/strict';
import { EventEmitter, once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, it } from 'node:test';
import { ConnectionError, createClient, type FetchLike } from '../src/index.ts';
import { json } from './helpers/fake-fetch.ts';

const token = 'test_token_abc';
const baseUrl = 'https://api.test';
const timedOut = (error: Error) => error instanceof ConnectionError && /No response within 30 ms: GET https:\/\/api\.test\/accounts/.test(error.message);

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
    assert.equal((seen[0]?.reason as DOMException).name, 'TimeoutError');
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
    assert.deepEqual(signals.map((signal) => signal.aborted), [true, false]);
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
  it('the global fetch closes the connection of a request that timed out', { timeout: 20_000 }, async () => {
    // Holds every request without answering, and notes when the client goes away.
    const held = new EventEmitter();
    const [arrived, closed] = [once(held, 'arrived'), once(held, 'closed')];
    const server = createServer((request) => {
      held.emit('arrived', request.url);
      request.socket.once('close', () => held.emit('closed'));
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const client = createClient({ token, baseUrl: origin, timeoutMs: 1_000, retry: false });
      const pending = client.accounts.list();
      assert.deepEqual(await arrived, ['/accounts']);
      await assert.rejects(pending, (error: Error) => error instanceof ConnectionError && /No response within 1000 ms/.test(error.message));
      await closed;
    } finally {
      server.closeAllConnections();
      server.close();
    }
  });
});
