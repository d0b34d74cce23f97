import assert from 'node:assert/strict';
import { describe, it } from 'vitest';
import {
  ApiError,
  backoffDelay,
  ConnectionError,
  ConnectionTimeoutError,
  createClient,
  createRetryingFetch,
  idempotencyKeyedPosts,
  RateLimitError,
  type RetryInfo,
  ServiceUnavailableError,
} from '../src/index.ts';
import { apiError, fakeFetch, json, recordingSleep } from './helpers/fake-fetch.ts';

const token = 'test_token_abc';
const baseUrl = 'https://api.test';
const account = {
  id: 'acc_1',
  links: { self: `${baseUrl}/accounts/acc_1`, payments: `${baseUrl}/accounts/acc_1/payments` },
};
const payment = {
  id: 'pay_1',
  amount: '10.00',
  memo: 'Rent',
  reference: 'R1',
  date: '2024-05-01',
  payee: { scheme: 'zelle', type: 'person', name: 'Ann', address: 'ann@example.com' },
  links: { self: `${baseUrl}/accounts/acc_1/payments/pay_1`, account: `${baseUrl}/accounts/acc_1` },
} as const;
const paymentBody = { amount: '10.00', memo: 'Rent', payee: { scheme: 'zelle', address: 'ann@example.com' } } as const;

/** An answer that never comes: the fetch fails only when its request is aborted. */
function hang(request: Request): Promise<Response> {
  return new Promise((_, reject) => request.signal.addEventListener('abort', () => reject(request.signal.reason)));
}

function setup(handler: Parameters<typeof fakeFetch>[0], retry: Record<string, unknown> = {}) {
  const fake = fakeFetch(handler);
  const clock = recordingSleep();
  const retries: RetryInfo[] = [];
  const client = createClient({
    token,
    baseUrl,
    fetch: fake.fetch,
    retry: { sleep: clock.sleep, random: () => 0.5, onRetry: (info) => retries.push(info), ...retry },
  });
  return { client, calls: fake.calls, waits: clock.waits, retries };
}

describe('retries of idempotent requests', () => {
  for (const status of [429, 502, 503]) {
    it(`GET is retried after ${status}`, async () => {
      const { client, calls, waits } = setup((_, i) => (i === 0 ? apiError(status, 'x') : json([account])));
      const accounts = await client.accounts.list();
      assert.equal(accounts[0]?.id, 'acc_1');
      assert.equal(calls.length, 2);
      assert.equal(waits.length, 1);
    });
  }

  it('DELETE and OPTIONS are retried', async () => {
    const { client, calls } = setup((request, i) => {
      if (i % 2 === 0) return apiError(502, 'bad_gateway');
      return request.method === 'DELETE' ? new Response(null, { status: 204 }) : json({ schemes: [{ name: 'zelle' }] });
    });
    const deleted = await client.accounts.delete('acc_1');
    assert.equal(deleted.status, 204);
    const schemes = await client.payments.schemes('acc_1');
    assert.deepEqual(schemes, { schemes: [{ name: 'zelle' }] });
    assert.deepEqual(
      calls.map((c) => c.method),
      ['DELETE', 'DELETE', 'OPTIONS', 'OPTIONS'],
    );
  });

  it('is not retried for other errors (500, 404, 422)', async () => {
    for (const status of [500, 404, 422]) {
      const { client, calls } = setup(() => apiError(status, 'nope'));
      await assert.rejects(client.accounts.list(), ApiError);
      assert.equal(calls.length, 1, `status ${status}`);
    }
  });

  it('stops after the limit and throws the last error', async () => {
    const { client, calls, waits } = setup(() => apiError(503, 'unavailable'), { maxRetries: 3 });
    await assert.rejects(client.accounts.list(), (error: ApiError) => error.status === 503 && error.code === 'unavailable');
    assert.equal(calls.length, 4);
    assert.equal(waits.length, 3);
  });

  it('backs off exponentially', async () => {
    const { client, waits } = setup(() => apiError(503, 'unavailable'), { maxRetries: 4, baseDelayMs: 100, maxDelayMs: 10_000 });
    await assert.rejects(client.accounts.list());
    // random() = 0.5: half the step plus a quarter of it.
    assert.deepEqual(waits, [75, 150, 300, 600]);
  });

  it('honours Retry-After in seconds', async () => {
    const { client, waits } = setup((_, i) => (i === 0 ? apiError(429, 'rate_limited', 'slow down', { 'Retry-After': '3' }) : json([])));
    await client.accounts.list();
    assert.deepEqual(waits, [3000]);
  });

  it('honours Retry-After as an HTTP date', async () => {
    const later = new Date(Date.now() + 5_000).toUTCString();
    const { client, waits } = setup((_, i) => (i === 0 ? apiError(503, 'x', 'x', { 'Retry-After': later }) : json([])));
    await client.accounts.list();
    assert.equal(waits.length, 1);
    assert.ok((waits[0] as number) > 3_000 && (waits[0] as number) <= 5_000, `waited ${waits[0]}`);
  });

  it('does not wait for a Retry-After beyond the cap; the error carries it', async () => {
    const { client, calls } = setup(() => apiError(429, 'rate_limited', 'later', { 'Retry-After': '3600' }));
    await assert.rejects(client.accounts.list(), (error: ApiError) => error.status === 429 && error.retryAfter === 3600);
    assert.equal(calls.length, 1);
  });

  it('retries network errors, then gives up with a ConnectionError', async () => {
    let attempts = 0;
    const { client } = setup(() => {
      attempts++;
      throw new TypeError('fetch failed');
    });
    await assert.rejects(client.accounts.list(), (error: ConnectionError) => {
      assert.ok(error instanceof ConnectionError);
      assert.ok(error.cause instanceof TypeError);
      return true;
    });
    assert.equal(attempts, 3);
  });

  it('recovers from a network error', async () => {
    const { client, retries } = setup((_, i) => {
      if (i === 0) throw new TypeError('socket hang up');
      return json([account]);
    });
    assert.equal((await client.accounts.list()).length, 1);
    assert.equal(retries.length, 1);
    assert.ok(retries[0]?.error instanceof TypeError);
  });

  it('can be turned off', async () => {
    const fake = fakeFetch(() => apiError(503, 'x'));
    const client = createClient({ token, baseUrl, fetch: fake.fetch, retry: false });
    await assert.rejects(client.accounts.list(), ApiError);
    assert.equal(fake.calls.length, 1);
  });

  // Also with the real sleep: the wait follows the caller's signal, not the attempt's, which the timeout aborted.
  for (const [wait, retry] of [
    ['a stub', { sleep: async () => {} }],
    ['the real sleep', { baseDelayMs: 1 }],
  ] as const) {
    it(`a timed-out attempt is retried (waiting with ${wait})`, async () => {
      let attempts = 0;
      const fetch = (request: Request) => (++attempts === 1 ? hang(request) : Promise.resolve(json([account])));
      const client = createClient({ token, baseUrl, fetch, timeoutMs: 20, retry });
      assert.equal((await client.accounts.list()).length, 1);
      assert.equal(attempts, 2);
    });
  }

  it('a timeout on the last attempt is a ConnectionError', async () => {
    const client = createClient({ token, baseUrl, fetch: hang, timeoutMs: 20, retry: false });
    await assert.rejects(client.accounts.list(), (error: Error) => error instanceof ConnectionError && /No response within 20 ms/.test(error.message));
  });

  it("the caller's abort is final, not retried", async () => {
    let attempts = 0;
    const fetch = (request: Request) => {
      attempts++;
      return hang(request);
    };
    const client = createClient({ token, baseUrl, fetch, retry: { sleep: async () => {} } });
    const controller = new AbortController();
    const pending = client.accounts.list({ signal: controller.signal });
    setTimeout(() => controller.abort(new Error('stop')), 10);
    await assert.rejects(pending, /stop/);
    assert.equal(attempts, 1);
  });
});

describe('retries of payments', () => {
  it('a payment is retried with the same Idempotency-Key and body', async () => {
    const { client, calls } = setup((request, i) => {
      if (request.method === 'GET') return json(account);
      return i === 1 ? apiError(503, 'unavailable') : json(payment, 202);
    });
    const result = await client.payments.create('acc_1', paymentBody);
    assert.equal(result.kind, 'payment');
    const posts = calls.filter((c) => c.method === 'POST');
    assert.equal(posts.length, 2);
    const key = posts[0]?.headers.get('Idempotency-Key');
    assert.match(key ?? '', /^[0-9a-f-]{36}$/);
    assert.equal(posts[1]?.headers.get('Idempotency-Key'), key);
    assert.equal(result.idempotencyKey, key);
    assert.equal(posts[0]?.body, JSON.stringify(paymentBody));
    assert.equal(posts[1]?.body, posts[0]?.body);
  });

  it('a payment is retried after a network error with the same key', async () => {
    const { client, calls } = setup((_request, i) => {
      if (i === 0) throw new TypeError('connection reset');
      return json(payment, 202);
    });
    const result = await client.payments.create(account, paymentBody, { idempotencyKey: 'key-123' });
    assert.equal(result.kind, 'payment');
    assert.deepEqual(
      calls.map((c) => c.headers.get('Idempotency-Key')),
      ['key-123', 'key-123'],
    );
  });

  it('a timed-out payment is retried with the same key and body', async () => {
    const sent: { key: string | null; body: string }[] = [];
    const fetch = async (request: Request) => {
      sent.push({ key: request.headers.get('Idempotency-Key'), body: await request.text() });
      return sent.length === 1 ? hang(request) : json(payment, 202);
    };
    const client = createClient({ token, baseUrl, fetch, timeoutMs: 20, retry: { sleep: async () => {} } });
    const result = await client.payments.create(account, paymentBody, { idempotencyKey: 'key-456' });
    assert.equal(result.kind, 'payment');
    assert.deepEqual(sent, [
      { key: 'key-456', body: JSON.stringify(paymentBody) },
      { key: 'key-456', body: JSON.stringify(paymentBody) },
    ]);
  });

  it('each payment gets its own key', async () => {
    const { client, calls } = setup(() => json(payment, 202));
    await client.payments.create(account, paymentBody);
    await client.payments.create(account, paymentBody);
    const keys = calls.map((c) => c.headers.get('Idempotency-Key'));
    assert.equal(keys.length, 2);
    assert.notEqual(keys[0], keys[1]);
  });

  it('payee creation, whose description declares no Idempotency-Key, is sent without one and never retried', async () => {
    const { client, calls } = setup(() => apiError(503, 'unavailable'));
    const payee = { scheme: 'zelle', address: 'ann@example.com', name: 'Ann', type: 'person' } as const;
    await assert.rejects(client.payees.create('acc_1', payee, { idempotencyKey: 'ignored' }), ServiceUnavailableError);
    assert.equal(calls.length, 1);
    assert.equal(calls[0]?.headers.get('Idempotency-Key'), null);
  });

  it('a payment sent through raw gets a key of its own and is retried with it', async () => {
    const raw = setup((_, i) => (i === 0 ? apiError(503, 'unavailable') : json(payment, 202)));
    const { response } = await raw.client.raw.POST('/accounts/{account_id}/payments', {
      params: { path: { account_id: 'acc_1' } },
      body: paymentBody,
    });
    assert.equal(response.status, 202);
    const keys = raw.calls.map((c) => c.headers.get('Idempotency-Key'));
    assert.equal(keys.length, 2);
    assert.match(keys[0] ?? '', /^[0-9a-f-]{36}$/);
    assert.equal(keys[1], keys[0]);
  });

  it('only the POSTs the description gives an Idempotency-Key are listed', () => {
    assert.deepEqual(idempotencyKeyedPosts, ['/accounts/{account_id}/payments']);
  });
});

describe('per-call and client-level retries and timeout', () => {
  it('maxRetries: 0 on a call throws the first 429 as a RateLimitError; the default retries get through', async () => {
    const { client, calls } = setup((_, i) => (i < 2 ? apiError(429, 'rate_limited', 'slow down', { 'Retry-After': '1' }) : json([account])));
    await assert.rejects(client.accounts.list({ maxRetries: 0 }), (error: RateLimitError) => {
      assert.ok(error instanceof RateLimitError && error instanceof ApiError);
      assert.equal(error.retryAfter, 1);
      return true;
    });
    assert.equal(calls.length, 1);
    assert.equal((await client.accounts.list()).length, 1);
    assert.equal(calls.length, 3);
  });

  it("a call's maxRetries overrides the client's, both ways", async () => {
    const fake = fakeFetch(() => apiError(503, 'unavailable'));
    const client = createClient({ token, baseUrl, fetch: fake.fetch, maxRetries: 0, retry: { sleep: async () => {} } });
    await assert.rejects(client.accounts.list(), ServiceUnavailableError);
    assert.equal(fake.calls.length, 1);
    await assert.rejects(client.accounts.list({ maxRetries: 3 }), ServiceUnavailableError);
    assert.equal(fake.calls.length, 5);
  });

  it("a call's timeout overrides the client's, and a timeout is a ConnectionTimeoutError", async () => {
    let attempts = 0;
    const fetch = (request: Request) => {
      attempts++;
      return hang(request);
    };
    const client = createClient({ token, baseUrl, fetch, timeout: 60_000, maxRetries: 0 });
    await assert.rejects(client.accounts.list({ timeout: 20 }), (error: Error) => {
      assert.ok(error instanceof ConnectionTimeoutError && error instanceof ConnectionError);
      assert.equal((error as ConnectionTimeoutError).reason, 'timeout');
      assert.match(error.message, /No response within 20 ms: GET https:\/\/api\.test\/accounts/);
      return true;
    });
    assert.equal(attempts, 1);
  });

  it('a timeout and retries on one call: each attempt timed out, then retried', async () => {
    let attempts = 0;
    const fetch = (request: Request) => (++attempts < 3 ? hang(request) : Promise.resolve(json([account])));
    const client = createClient({ token, baseUrl, fetch, retry: { sleep: async () => {} } });
    assert.equal((await client.accounts.list({ timeout: 20, maxRetries: 2 })).length, 1);
    assert.equal(attempts, 3);
  });

  it("a payment's idempotencyKey call option is sent, kept across retries and returned", async () => {
    const { client, calls } = setup((_, i) => (i === 0 ? apiError(429, 'rate_limited') : json(payment, 202)));
    const result = await client.payments.create(account, paymentBody, { idempotencyKey: 'key-789', maxRetries: 1 });
    assert.equal(result.idempotencyKey, 'key-789');
    assert.deepEqual(
      calls.map((c) => c.headers.get('Idempotency-Key')),
      ['key-789', 'key-789'],
    );
  });
});

describe('backoffDelay', () => {
  it('stays within half and all of the capped exponential step', () => {
    for (let retry = 1; retry <= 8; retry++) {
      const step = Math.min(8_000, 500 * 2 ** (retry - 1));
      assert.equal(backoffDelay(retry, { random: () => 0 }), step / 2);
      assert.equal(backoffDelay(retry, { random: () => 0.999999 }) <= step, true);
    }
  });
});

describe('sending without a timeout, and createRetryingFetch', () => {
  it('timeout: 0 hands a custom fetch the caller’s signal alone, or nothing', async () => {
    const inits: (RequestInit | undefined)[] = [];
    const client = createClient({
      token,
      baseUrl,
      timeout: 0,
      fetch: (_request, init) => {
        inits.push(init);
        return json([]);
      },
    });
    const controller = new AbortController();
    await client.accounts.list({ signal: controller.signal });
    await client.accounts.list();
    assert.equal(inits[0]?.signal, controller.signal);
    assert.equal(inits[1], undefined);
  });

  it("a wait between attempts ends with the caller's abort", async () => {
    const client = createClient({ token, baseUrl, fetch: () => apiError(503, 'x', 'x', { 'Retry-After': '30' }) });
    const controller = new AbortController();
    const pending = client.accounts.list({ signal: controller.signal });
    setTimeout(() => controller.abort(new Error('stop waiting')), 20);
    await assert.rejects(pending, /stop waiting/);
  });

  it('createRetryingFetch wraps any fetch with the same retries', async () => {
    const fake = fakeFetch((_, i) => (i === 0 ? apiError(502, 'bad_gateway') : json([])));
    const fetch = createRetryingFetch(fake.fetch, { sleep: async () => {}, timeoutMs: 1_000 });
    assert.equal((await fetch(new Request(`${baseUrl}/accounts`))).status, 200);
    assert.equal(fake.calls.length, 2);
  });
});
