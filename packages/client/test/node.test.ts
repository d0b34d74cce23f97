import assert from 'node:assert/strict';
import { EventEmitter, once } from 'node:events';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import type { TLSSocket } from 'node:tls';
import { type RunningServer, startServer } from '@aggregation/server';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { ApiError, ConfigurationError, ConnectionError, createClient } from '../src/node.ts';
import { createTestPki, hasOpenssl, type TestPki } from './helpers/certificates.ts';
import { headersTimedOut } from './helpers/loopback.ts';

const skip = hasOpenssl() ? false : 'openssl is not installed: cannot create test certificates';

describe.skipIf(skip)('Node entry: mutual TLS', () => {
  let pki: TestPki;
  let server: Server;
  let baseUrl: string;
  // Emits 'arrived' and 'closed' for the held request's connection.
  const held = new EventEmitter();

  beforeAll(async () => {
    pki = createTestPki();
    // Answers with the certificate it saw, so the test can tell that the client presented one.
    server = createServer(
      { key: pki.serverKey, cert: pki.serverCert, ca: pki.ca, requestCert: true, rejectUnauthorized: true },
      (request, response) => {
        if (request.url === '/accounts/acc_held') {
          // Never answered: the client's timeout has to abort it.
          held.emit('arrived');
          request.socket.once('close', () => held.emit('closed'));
          return;
        }
        const peer = (request.socket as TLSSocket).getPeerCertificate();
        response.setHeader('Content-Type', 'application/json');
        response.setHeader('Service-Enrollment-Status', 'healthy');
        response.end(JSON.stringify([{ id: 'acc_1', client_cn: peer.subject?.CN, authorization: request.headers.authorization }]));
      },
    );
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    baseUrl = `https://localhost:${(server.address() as AddressInfo).port}`;
  });

  afterAll(() => {
    server?.closeAllConnections();
    server?.close();
  });

  /** A client with a live token and the test's client certificate, without retries. */
  const liveClient = (options: { timeoutMs?: number } = {}) =>
    createClient({ token: 'token_live_abc', baseUrl, cert: pki.clientCert, key: pki.clientKey, ca: pki.ca, retry: false, ...options });

  it('sends live requests with the client certificate', async () => {
    const client = liveClient();
    try {
      const [account] = (await client.accounts.list()) as unknown as { client_cn: string; authorization: string }[];
      assert.equal(account?.client_cn, 'test-application');
      assert.equal(account?.authorization, `Basic ${btoa('token_live_abc:')}`);
      assert.equal(client.enrollmentStatus?.status, 'healthy');
    } finally {
      await client.close();
    }
  });

  // The timeout is long enough for the request to reach the server on a loaded machine; the test's own timeout
  // bounds the wait for the connection to close.
  it('a timed-out attempt is aborted on its mutual TLS connection', async () => {
    const client = liveClient({ timeoutMs: 2_000 });
    try {
      const [arrived, closed] = [once(held, 'arrived'), once(held, 'closed')];
      const pending = client.accounts.get('acc_held');
      await arrived;
      await assert.rejects(pending, headersTimedOut(2_000, `GET ${baseUrl}/accounts/acc_held`));
      await closed;
    } finally {
      await client.close();
    }
  });

  it('a server requiring a certificate rejects a client without one', async () => {
    // A sandbox token is allowed without mTLS; this server insists on it, so the handshake fails.
    const { Agent } = await import('undici');
    const agent = new Agent({ connect: { ca: pki.ca } });
    const client = createClient({
      token: 'test_token_abc',
      baseUrl,
      fetch: (request) => globalThis.fetch(request, { dispatcher: agent } as RequestInit),
      retry: false,
    });
    await assert.rejects(client.accounts.list(), ConnectionError);
    await agent.close();
  });

  it('refuses a live token without cert and key before sending anything', () => {
    assert.throws(() => createClient({ token: 'token_live_abc', baseUrl }), ConfigurationError);
    assert.throws(() => createClient({ token: 'token_live_abc', baseUrl, cert: pki.clientCert }), /both cert and key/);
    assert.throws(
      () => createClient({ token: 'token_live_abc', baseUrl, cert: pki.clientCert, key: pki.clientKey, fetch: globalThis.fetch }),
      /either cert and key or a custom fetch/,
    );
  });

  it('sandbox tokens need no certificate', async () => {
    const client = createClient({ token: 'test_token_abc', baseUrl: 'https://api.test', fetch: async () => Response.json([]) });
    assert.deepEqual(await client.accounts.list(), []);
    await client.close();
  });
});

describe.skipIf(skip)('Node entry: live requests to the server over mutual TLS', () => {
  let pki: TestPki;
  let running: RunningServer;
  let liveToken: string;

  beforeAll(async () => {
    pki = createTestPki();
    running = await startServer({
      port: 0,
      hostname: '127.0.0.1',
      tls: { key: pki.serverKey, cert: pki.serverCert, clientCa: pki.ca },
      logError: () => {},
    });
    // Live enrollments come from the enrollment widget, which the sandbox control API does not replace for
    // live mode; the server's own domain function creates one.
    const { createEnrollment } = await import('../../server/src/domain/enrollments.ts');
    liveToken = (await createEnrollment(running.app.runtime.deps, { username: 'username', password: 'password', mode: 'live' })).token;
  });
  afterAll(async () => {
    await running?.close();
  });

  it('a live token with the client certificate is served', async () => {
    assert.match(liveToken, /^token_/);
    const client = createClient({ token: liveToken, baseUrl: running.url, cert: pki.clientCert, key: pki.clientKey, ca: pki.ca, retry: false });
    try {
      const accounts = await client.accounts.list();
      assert.equal(accounts.length, 3);
      const checking = accounts.find((account) => account.links.payments);
      assert.ok(checking);
      assert.equal((await client.accounts.get(checking.id)).id, checking.id);
      assert.equal(client.enrollmentStatus?.status, 'healthy');
    } finally {
      await client.close();
    }
  });

  it('a certificate the server CA did not sign: 400 bad_request', async () => {
    const other = createTestPki();
    const client = createClient({ token: liveToken, baseUrl: running.url, cert: other.clientCert, key: other.clientKey, ca: pki.ca, retry: false });
    try {
      await assert.rejects(
        client.accounts.list(),
        (error: ApiError) => error instanceof ApiError && error.status === 400 && error.code === 'bad_request',
      );
    } finally {
      await client.close();
    }
  });
});
