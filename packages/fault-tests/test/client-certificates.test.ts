// Live tokens need a client certificate, on a running HTTPS server with a client CA, on SQLite and PostgreSQL:
// with the CA's certificate a live token is served; without one it answers 400 bad_request; with a certificate
// another CA signed, 400 too; and that holds for every request in turn, a read the server keeps and replays
// included (a replay needs this connection's certificate too). The certificates are made with openssl.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { skipWhenMissing } from '@aggregation/test-support';
import { afterAll, beforeAll, test } from 'vitest';
import { type Certificates, certificates, type HttpsReply, hasOpenssl, httpsCall, type KeyPair } from '../../server/test/helpers/certificates.ts';
import { assertContract } from '../../server/test/helpers/harness.ts';
import { describeUnless, storeKinds } from '../../server/test/helpers/stores.ts';
import { assertRefused } from '../src/api.ts';
import { type ServerProcess, startServerProcess } from '../src/server-process.ts';
import { tally } from '../src/tally.ts';

const ROUNDS = 3;

const noOpenssl = skipWhenMissing('the client certificate tests', !hasOpenssl() && 'openssl is not installed');
const kinds = await storeKinds();
let dir: string | undefined;
let certs: Certificates;
beforeAll(() => {
  if (noOpenssl) return;
  dir = mkdtempSync(join(tmpdir(), 'fault-tls-'));
  certs = certificates(dir);
});
afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

for (const kind of kinds) {
  describeUnless(kind.skip || noOpenssl, `live tokens and client certificates on ${kind.name}`, { timeout: 60_000 }, () => {
    let server: ServerProcess;
    let liveToken: string;
    let sandboxToken: string;

    beforeAll(async () => {
      server = await startServerProcess(await kind.location(), {
        TLS_KEY: certs.file('server.key'),
        TLS_CERT: certs.file('server.crt'),
        TLS_CLIENT_CA: certs.file('ca.crt'),
        LIVE_ENROLLMENT: 'on',
      });
      liveToken = /^Live token: (\S+)/.exec(server.output.find((line) => line.startsWith('Live token: ')) ?? '')?.[1] ?? '';
      assert.match(liveToken, /^token_/, server.output.join('\n'));
      const enrolled = await httpsCall(`${server.url}/sandbox/enrollments`, {
        ca: certs.ca,
        method: 'POST',
        json: { username: 'username', password: 'password' },
      });
      assert.equal(enrolled.status, 201, enrolled.text);
      sandboxToken = enrolled.body.access_token;
    });
    afterAll(() => server?.stop());

    const get = async (path: string, token: string, client?: KeyPair): Promise<HttpsReply> => {
      tally.requests++;
      const reply = await httpsCall(`${server.url}${path}`, { ca: certs.ca, token, client });
      assertContract('GET', path, reply);
      return reply;
    };

    test(`${ROUNDS} rounds of two reads: with the CA's certificate 200, without one or with another CA's 400 bad_request`, async () => {
      const accounts = await get('/accounts', liveToken, certs.client);
      const paths = ['/accounts', `/accounts/${accounts.body[0].id}/balances`];
      for (let round = 0; round < ROUNDS; round++) {
        for (const path of paths) {
          const served = await get(path, liveToken, certs.client);
          assert.equal(served.status, 200, `${path} with the certificate: ${served.text}`);
          for (const [what, client] of [
            ['no certificate', undefined],
            ["another CA's certificate", certs.rogue],
          ] as const) {
            const refused = await get(path, liveToken, client);
            assertRefused(refused.status, refused.body, refused.text, `${path} with ${what}`);
            assert.equal(refused.status, 400, `${path} with ${what}: ${refused.text}`);
            assert.equal(refused.body.error.code, 'bad_request');
            tally.certificateRefusals++;
          }
        }
      }
      assert.deepEqual(server.errors(), []);
    });

    test('sandbox tokens need no certificate; the control API refuses live tokens', async () => {
      assert.equal((await get('/accounts', sandboxToken)).status, 200);
      const refused = await get('/sandbox/clock', liveToken, certs.client);
      assert.equal(refused.status, 403);
      assert.equal(refused.body.error.code, 'sandbox.live_token');
    });
  });
}
