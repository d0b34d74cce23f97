// Live tokens: the API asks for the TLS client certificate issued to the application. With --cert and --key the
// server presents it (mutual TLS through the client's Node entry), and a live token without them is refused before
// anything is sent, saying how to give them. The sandbox server serves HTTPS with a client CA here, with throwaway
// certificates made by openssl (the server's own test helper).
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createEnrollment, type RunningServer, startServer } from '@aggregation/server';
import { skipWhenMissing } from '@aggregation/test-support';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { type Certificates, certificates, hasOpenssl } from '../../server/test/helpers/certificates.ts';
import { assertStructured, assertToolError, type Connected, connectStdio } from './helpers/mcp.ts';

const skip = skipWhenMissing('the live token over mutual TLS', hasOpenssl() ? false : 'openssl not found: apt-get install -y openssl');

describe.skipIf(skip)('a live token', () => {
  let dir: string;
  let certs: Certificates;
  let running: RunningServer;
  let token: string;
  const servers: Connected[] = [];

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'aggregation-mcp-live-'));
    certs = certificates(dir);
    running = await startServer({ port: 0, hostname: 'localhost', tls: { ...certs.server, clientCa: certs.ca }, logError: () => {} });
    token = (await createEnrollment(running.app.runtime.deps, { username: 'username', password: 'password', mode: 'live' })).token;
  });
  afterAll(async () => {
    for (const server of servers) await server.close();
    await running?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('is served over mutual TLS with --cert and --key', async () => {
    const live = await connectStdio({
      token,
      baseUrl: running.url,
      args: ['--cert', certs.file('client.crt'), '--key', certs.file('client.key')],
      env: { NODE_EXTRA_CA_CERTS: certs.file('ca.crt') },
    });
    servers.push(live);
    const accounts = assertStructured(live.tools.get('list_accounts')!, await live.call('list_accounts'));
    assert.equal(accounts.data.length, 3);
    assert.ok(!live.log().includes(token));
  });

  it('without them is refused before anything is sent, saying how to give them', async () => {
    const bare = await connectStdio({ token, baseUrl: running.url, env: { NODE_EXTRA_CA_CERTS: certs.file('ca.crt') } });
    servers.push(bare);
    const text = assertToolError(
      await bare.call('list_accounts'),
      /^A live token \(token_\.\.\.\) needs the TLS client certificate .*--cert and --key/,
    );
    assert.ok(!text.includes(token));
  });
});
