// The server over real sockets: a file database, concurrency across connections, HTTPS with a
// client CA for live tokens, rate limiting and a graceful shutdown.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { createEnrollment } from '../src/domain/enrollments.ts';
import { hashToken } from '../src/domain/ids.ts';
import { MAX_BODY_BYTES } from '../src/http/middleware/validate.ts';
import { originReader } from '../src/http/middleware/version.ts';
import { type RunningServer, startServer } from '../src/index.ts';
import { type Certificates, certificates, hasOpenssl, httpsCall, type KeyPair } from './helpers/certificates.ts';
import { assertContract, basic, type Caller, caller, contract } from './helpers/harness.ts';

const payee = { scheme: 'zelle', address: 'jane.doe@example.com', name: 'Jane Doe', type: 'person' };

describe('over HTTP with a SQLite file', () => {
  let dir: string;
  let running: RunningServer;
  let call: Caller;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'server-http-'));
    running = await startServer({ port: 0, hostname: '127.0.0.1', databasePath: join(dir, 'sandbox.sqlite') });
    call = caller((request) => fetch(request), running.url);
  });
  afterAll(async () => {
    await running.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test('the quick start works: enroll, then GET /accounts with Basic auth', async () => {
    const created = await call('POST', '/sandbox/enrollments', { json: { username: 'username', password: 'password' } });
    assert.equal(created.status, 201);
    const list = await call('GET', '/accounts', { token: created.body.access_token });
    assert.equal(list.status, 200);
    assert.equal(list.body.length, 3);
    assert.ok(list.body[0].links.self.startsWith(running.url));
  });

  test("links are based on each request's Host, request after request", async () => {
    const created = await call('POST', '/sandbox/enrollments', { json: { username: 'username', password: 'password' } });
    const accountId = created.body.accounts[0].id as string;
    const { port } = new URL(running.url);
    /** GET over a socket with a Host header of our choosing (fetch sets its own). */
    const read = (path: string, host: string) =>
      new Promise<{ links: { self: string } } | { links: { self: string } }[]>((resolve, reject) => {
        const sent = httpRequest({ host: '127.0.0.1', port, path, headers: { host, authorization: basic(created.body.access_token) } }, (response) => {
          let text = '';
          response.setEncoding('utf8');
          response.on('data', (chunk: string) => (text += chunk));
          response.on('end', () => resolve(JSON.parse(text)));
        });
        sent.on('error', reject);
        sent.end();
      });
    for (const [path, host] of [
      ['/accounts', `127.0.0.1:${port}`],
      ['/accounts', `localhost:${port}`],
      [`/accounts/${accountId}`, `127.0.0.1:${port}`],
      [`/accounts/${accountId}/balances`, `LOCALHOST:${port}`],
    ] as const) {
      const body = await read(path, host);
      const self = Array.isArray(body) ? body[0]!.links.self : body.links.self;
      assert.ok(self.startsWith(`http://${host.toLowerCase()}/`), `${path} with Host ${host}: ${self}`);
    }
  });

  test('a documented path with another method answers 405 with Allow; an unknown path 404', async () => {
    for (const [method, path, allow] of [
      ['PATCH', '/accounts', 'GET, DELETE'],
      ['PUT', '/accounts/acc_x/payments', 'GET, POST, OPTIONS'],
      ['DELETE', '/sandbox/clock', 'GET'],
    ] as const) {
      const response = await fetch(`${running.url}${path}`, { method, headers: { authorization: basic('test_token_x') } });
      assert.equal(response.status, 405, `${method} ${path}`);
      assert.equal(response.headers.get('allow'), allow);
      assert.equal(((await response.json()) as { error: { code: string } }).error.code, 'method_not_allowed');
    }
    const unknown = await fetch(`${running.url}/nowhere`);
    assert.equal(unknown.status, 404);
    assert.equal(((await unknown.json()) as { error: { code: string } }).error.code, 'not_found');
  });

  test('the rendered docs are served under /docs', async () => {
    const bare = await fetch(`${running.url}/docs`, { redirect: 'manual' });
    assert.equal(bare.status, 301);
    assert.equal(new URL(bare.headers.get('location')!, running.url).pathname, '/docs/');
    const index = await fetch(`${running.url}/docs/`);
    assert.equal(index.status, 200);
    assert.match(index.headers.get('content-type') ?? '', /text\/html/);
    assert.match(await index.text(), /2020-10-12/);
    const page = await fetch(`${running.url}/docs/2019-07-01.html`);
    assert.equal(page.status, 200);
    await page.body?.cancel();
  });

  test('curl-style JSON sent as a form still works', async () => {
    const response = await fetch(`${running.url}/sandbox/enrollments`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: JSON.stringify({ username: 'username', password: 'password' }),
    });
    assert.equal(response.status, 201);
  });

  test("requests Node's parser refuses answer in the error shape: 400, or 431 for oversized headers", async () => {
    const { port } = new URL(running.url);
    const cases: [string, number][] = [
      ['GARBAGE\r\n\r\n', 400],
      ['GET /accounts HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\nab', 400],
      [`GET /accounts HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`, 431],
    ];
    for (const [request, status] of cases) {
      const answer = await rawRequest(Number(port), request);
      const [head, body] = answer.split('\r\n\r\n');
      assert.match(head!, new RegExp(`^HTTP/1.1 ${status} `), answer.slice(0, 200));
      assert.match(head!, /content-type: application\/json/i);
      const parsed = JSON.parse(body!);
      assert.deepEqual(contract('2020-10-12').validateAt('#/components/schemas/Error', parsed), []);
    }
    // The server still serves.
    assert.equal((await call('GET', '/institutions')).status, 200);
  });

  test('a body with a Content-Encoding the server does not decode is refused with 415 and makes nothing', async () => {
    const created = await call('POST', '/sandbox/enrollments', { json: { username: 'username', password: 'password' } });
    const token = created.body.access_token;
    const checking = created.body.accounts[0].id;
    const path = `/accounts/${checking}/payments`;
    const sent = await call('POST', path, {
      token,
      json: { amount: '1.00', memo: 'Encoded', payee },
      headers: { 'content-encoding': 'gzip' },
      unchecked: true,
    });
    assert.equal(sent.status, 415, sent.text);
    assert.equal(sent.body.error.code, 'unsupported_media_type');
    assert.deepEqual((await call('GET', path, { token })).body, []);
  });

  test('a body over 1 MiB is refused with 413 and makes nothing, whether its length is declared or it comes in chunks', async () => {
    const created = await call('POST', '/sandbox/enrollments', { json: { username: 'username', password: 'password' } });
    const token = created.body.access_token;
    const path = `/accounts/${created.body.accounts[0].id}/payments`;
    const bodyOf = (memo: string) => JSON.stringify({ amount: '1.00', memo, payee });
    /** Sends the body in two chunks, without a Content-Length. */
    const chunked = (text: string) =>
      new ReadableStream<Uint8Array>({
        start(controller) {
          const bytes = new TextEncoder().encode(text);
          controller.enqueue(bytes.subarray(0, 1000));
          controller.enqueue(bytes.subarray(1000));
          controller.close();
        },
      });
    const post = (body: string | ReadableStream<Uint8Array>) =>
      fetch(`${running.url}${path}`, {
        method: 'POST',
        headers: { authorization: basic(token), 'content-type': 'application/json' },
        body,
        duplex: 'half',
      } as RequestInit);
    const large = bodyOf('x'.repeat(MAX_BODY_BYTES));
    for (const [label, body] of [
      ['declared', large],
      ['chunked', chunked(large)],
    ] as const) {
      const refused = await post(body);
      assert.equal(refused.status, 413, label);
      assert.equal(((await refused.json()) as { error: { code: string } }).error.code, 'payload_too_large', label);
    }
    assert.deepEqual((await call('GET', path, { token })).body, []);
    // Within the limit, both are read whole: the memo comes back as sent.
    const memo = 'y'.repeat(200);
    for (const body of [bodyOf(memo), chunked(bodyOf(memo))]) {
      const made = await post(body);
      assert.equal(made.status, 202);
      assert.equal(((await made.json()) as { memo: string }).memo, memo);
    }
    assert.equal((await call('GET', path, { token })).body.length, 2);
  });

  test('concurrent payments with one key over many connections make one payment', async () => {
    const created = await call('POST', '/sandbox/enrollments', { json: { username: 'username', password: 'password' } });
    const token = created.body.access_token;
    const checking = created.body.accounts[0].id;
    const replies = await Promise.all(
      Array.from({ length: 40 }, () =>
        call('POST', `/accounts/${checking}/payments`, {
          token,
          json: { amount: '4.20', memo: 'Parallel', payee },
          headers: { 'idempotency-key': 'parallel-key' },
        }),
      ),
    );
    assert.ok(replies.every((reply) => reply.status === 202));
    assert.equal(new Set(replies.map((reply) => reply.body.id)).size, 1);
    const payments = await call('GET', `/accounts/${checking}/payments`, { token });
    assert.equal(payments.body.length, 1);
  });

  test('the store file is in WAL mode with migrations recorded', async () => {
    const { DatabaseSync } = await import('node:sqlite');
    const db = new DatabaseSync(join(dir, 'sandbox.sqlite'), { readOnly: true });
    assert.equal((db.prepare('PRAGMA journal_mode').get() as { journal_mode: string }).journal_mode, 'wal');
    assert.ok((db.prepare('SELECT COUNT(*) AS n FROM migrations').get() as { n: number }).n >= 1);
    db.close();
  });
});

test('the origin of request URLs is read again whenever the text before the path changes', () => {
  const originOf = originReader();
  for (const url of [
    'http://a.test:8080/x',
    'http://a.test:8080/y?z=1',
    'http://b.test:8080/x',
    'https://b.test:8080/x',
    'http://a.test:80/x',
    'http://a.test/x',
    'http://a.test:8081/x',
    'http://a.test:8080/x',
    'http://[::1]:8080/x',
  ]) {
    assert.equal(originOf(url), new URL(url).origin, url);
  }
});

test('tokens are looked up by their SHA-256 in hex, as databases already store them', () => {
  assert.equal(hashToken('abc'), 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
});

describe('shutdown', () => {
  test('requests in flight finish; the server then refuses connections', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'server-stop-'));
    const running = await startServer({ port: 0, hostname: '127.0.0.1', databasePath: join(dir, 'db.sqlite') });
    try {
      const call = caller((request) => fetch(request), running.url);
      const created = await call('POST', '/sandbox/enrollments', { json: { username: 'history.30000', password: 'password' } });
      const id = created.body.accounts[0].id;
      const response = await fetch(`${running.url}/accounts/${id}/transactions`, { headers: { authorization: basic(created.body.access_token) } });
      assert.equal(response.status, 200);
      const reader = response.body!.getReader();
      const first = await reader.read();
      const closing = running.close();
      let text = new TextDecoder().decode(first.value);
      for (let part = await reader.read(); !part.done; part = await reader.read()) text += new TextDecoder().decode(part.value);
      assert.ok(JSON.parse(text).length >= 30000);
      await closing;
      await assert.rejects(fetch(`${running.url}/institutions`));
    } finally {
      await running.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('rate limiting', () => {
  // One request per 100 s: no token comes back while a test runs, however slow the machine is.
  const NO_REFILL = 0.01;

  test('429 rate_limited with Retry-After when a caller exceeds its budget', async () => {
    const running = await startServer({ port: 0, hostname: '127.0.0.1', rateLimit: { perSecond: NO_REFILL, burst: 3 } });
    try {
      const call = caller((request) => fetch(request), running.url);
      const statuses: number[] = [];
      let limited: Awaited<ReturnType<typeof call>> | undefined;
      for (let i = 0; i < 5; i++) {
        const reply = await call('GET', '/institutions');
        statuses.push(reply.status);
        if (reply.status === 429) limited = reply;
      }
      assert.deepEqual(statuses.slice(0, 3), [200, 200, 200]);
      assert.equal(statuses[4], 429);
      assert.equal(limited!.body.error.code, 'rate_limited');
      assert.ok(Number(limited!.headers.get('retry-after')) >= 1);
    } finally {
      await running.close();
    }
  });

  /** Statuses of `requests` sent one after another; `send` gets the request's index. */
  const statuses = async (requests: number, send: (index: number) => Promise<Response>) => {
    const out: number[] = [];
    for (let i = 0; i < requests; i++) {
      const response = await send(i);
      await response.arrayBuffer();
      out.push(response.status);
    }
    return out;
  };

  test('a token is one caller whatever password comes with it', async () => {
    const running = await startServer({ port: 0, hostname: '127.0.0.1', rateLimit: { perSecond: NO_REFILL, burst: 3 }, readCache: false });
    try {
      // Enrolled in-process: the enrollment's bucket is the only one the requests below can use.
      const { token } = await createEnrollment(running.app.runtime.deps, { username: 'username', password: 'password' });
      const seen = await statuses(5, (i) => fetch(`${running.url}/accounts`, { headers: { authorization: basic(token, String(i)) } }));
      assert.deepEqual(seen.slice(0, 3), [200, 200, 200]);
      assert.deepEqual(seen.slice(3), [429, 429]);
    } finally {
      await running.close();
    }
  });

  test('unauthenticated routes count by client address, whatever Authorization says', async () => {
    const running = await startServer({ port: 0, hostname: '127.0.0.1', rateLimit: { perSecond: NO_REFILL, burst: 3 } });
    try {
      const seen = await statuses(5, (i) =>
        fetch(`${running.url}/sandbox/enrollments`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Basic junk${i}` },
          body: JSON.stringify({ username: 'username', password: 'password' }),
        }),
      );
      assert.deepEqual(seen, [201, 201, 201, 429, 429]);
      // Unknown tokens are no identity either: they share the address's bucket.
      const unknown = await fetch(`${running.url}/accounts`, { headers: { authorization: basic('test_token_unknown') } });
      assert.equal(unknown.status, 429);
    } finally {
      await running.close();
    }
  });

  test('replayed reads count against the same caller as rendered ones', async () => {
    const running = await startServer({ port: 0, hostname: '127.0.0.1', rateLimit: { perSecond: NO_REFILL, burst: 3 } });
    try {
      const { token } = await createEnrollment(running.app.runtime.deps, { username: 'username', password: 'password' });
      // a, a (replayed), b, b (replayed): four requests of one enrollment.
      const seen = await statuses(4, (i) => fetch(`${running.url}/accounts`, { headers: { authorization: basic(token, i < 2 ? 'a' : 'b') } }));
      assert.ok(running.app.readCache!.hits >= 1, 'some reads were replayed');
      assert.deepEqual(seen, [200, 200, 200, 429]);
    } finally {
      await running.close();
    }
  });
});

/** Sends `request` as written on a new connection; resolves with everything the server sent until it closed. */
function rawRequest(port: number, request: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(request));
    const chunks: Buffer[] = [];
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('error', reject);
    // However long a loaded machine takes: the server closes the connection after its answer.
    socket.on('close', () => resolve(Buffer.concat(chunks).toString('utf8')));
  });
}

describe.skipIf(!hasOpenssl() && 'openssl is not installed')('HTTPS with a client CA', () => {
  let dir: string;
  let running: RunningServer;
  let certs: Certificates;
  let liveToken: string;
  let sandboxToken: string;

  const get = (path: string, token: string, client?: KeyPair) => httpsCall(`${running.url}${path}`, { ca: certs.ca, token, client });

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'server-tls-'));
    certs = certificates(dir);
    running = await startServer({ port: 0, hostname: 'localhost', tls: { ...certs.server, clientCa: certs.ca } });
    liveToken = (await createEnrollment(running.app.runtime.deps, { username: 'username', password: 'password', mode: 'live' })).token;
    sandboxToken = (await createEnrollment(running.app.runtime.deps, { username: 'username', password: 'password' })).token;
  });
  afterAll(async () => {
    await running.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test('a live token with the client certificate is served', async () => {
    assert.match(liveToken, /^token_/);
    const reply = await get('/accounts', liveToken, certs.client);
    assertContract('GET', '/accounts', reply);
    assert.equal(reply.status, 200);
    assert.equal(reply.body.length, 3);
  });

  test('a live token without a certificate, or with one the CA did not sign: 400 bad_request', async () => {
    for (const client of [undefined, certs.rogue]) {
      const reply = await get('/accounts', liveToken, client);
      assertContract('GET', '/accounts', reply);
      assert.equal(reply.status, 400);
      assert.equal(reply.body.error.code, 'bad_request');
    }
  });

  test('sandbox tokens need no certificate; the control API refuses live tokens', async () => {
    assert.equal((await get('/accounts', sandboxToken)).status, 200);
    const reply = await get('/sandbox/clock', liveToken, certs.client);
    assertContract('GET', '/sandbox/clock', reply);
    assert.equal(reply.status, 403);
    assert.equal(reply.body.error.code, 'sandbox.live_token');
  });
});
