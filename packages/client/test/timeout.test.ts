// The per-attempt timeout reaches the fetch as `init.signal` and as the Request's `signal`, and fails the attempt
// even when the fetch listens to neither.
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { createServer, type IncomingMessage } from 'node:http';
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

  it('the global fetch closes the connection of a request that timed out', async () => {
    // Holds every request without answering, and notes when the client goes away.
    const held: IncomingMessage[] = [];
    const closed: string[] = [];
    const server = createServer((request) => {
      held.push(request);
      request.socket.once('close', () => closed.push(request.url ?? ''));
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const client = createClient({ token, baseUrl: origin, timeoutMs: 100, retry: false });
      await assert.rejects(client.accounts.list(), (error: Error) => error instanceof ConnectionError && /No response within 100 ms/.test(error.message));
      assert.equal(held.length, 1);
      for (let i = 0; i < 100 && closed.length === 0; i++) await new Promise((resolve) => setTimeout(resolve, 10));
      assert.deepEqual(closed, ['/accounts']);
    } finally {
      server.closeAllConnections();
      server.close();
    }
  });
});
