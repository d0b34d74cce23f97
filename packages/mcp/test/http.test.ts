// `aggregation-mcp --http` with the official SDK's Streamable HTTP client: the same tools and answers as over stdio,
// several clients at once, bound to 127.0.0.1, and refusals of what a web page could send it (another Host, another
// Origin) or what the stateless endpoint does not serve.
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { afterAll, beforeAll, describe, it } from 'vitest';
import {
  assertStructured,
  assertToolError,
  type Connected,
  connectHttp,
  type HttpServer,
  requiredArguments,
  startHttp,
  textOf,
} from './helpers/mcp.ts';
import { type Enrollment, type Sandbox, startSandbox } from './helpers/sandbox.ts';

let sandbox: Sandbox;
let enrollment: Enrollment;
let server: HttpServer;
let mcp: Connected;

/** A raw POST to the endpoint, with headers a client library would not let a test set (Host). */
function post(url: string, headers: Record<string, string>, body: unknown, method = 'POST'): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const target = new URL(url);
    const req = request(
      {
        host: target.hostname,
        port: target.port,
        path: target.pathname,
        method,
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
      },
      (res) => {
        let text = '';
        res.on('data', (chunk: Buffer) => (text += chunk.toString()));
        res.on('end', () => resolve({ status: res.statusCode!, body: text }));
      },
    );
    req.on('error', reject);
    req.end(method === 'POST' ? JSON.stringify(body) : undefined);
  });
}

const initialize = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
};

beforeAll(async () => {
  sandbox = await startSandbox();
  enrollment = await sandbox.enroll('username');
  server = await startHttp({ token: enrollment.token, baseUrl: sandbox.url });
  mcp = await connectHttp(server);
});
afterAll(async () => {
  await mcp?.close();
  await server?.stop();
  await sandbox?.close();
});

describe('over Streamable HTTP', () => {
  it('listens on 127.0.0.1 at /mcp and says so', () => {
    assert.match(server.url, /^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    assert.match(server.log(), /read-only, 11 tools; Streamable HTTP on http:\/\/127\.0\.0\.1:\d+\/mcp/);
  });

  it('lists the reading tools and calls every one of them', async () => {
    assert.equal(mcp.tools.size, 11);
    const ids = await sandbox.readingIds(enrollment);
    for (const [name, tool] of mcp.tools) assertStructured(tool, await mcp.call(name, requiredArguments(tool, ids)));
  });

  it('pages, and answers a documented failure as a tool error', async () => {
    const account = enrollment.accounts[0]!;
    const first = assertStructured(mcp.tools.get('list_transactions')!, await mcp.call('list_transactions', { account_id: account.id, count: 3 }));
    const second = assertStructured(
      mcp.tools.get('list_transactions')!,
      await mcp.call('list_transactions', { account_id: account.id, count: 3, from_id: first.next_from_id }),
    );
    const both = (await sandbox.api(enrollment.token, `/accounts/${account.id}/transactions?count=6`)).body.map((t: { id: string }) => t.id);
    assert.deepEqual(
      [...first.data, ...second.data].map((t: { id: string }) => t.id),
      both,
    );
    assertToolError(await mcp.call('get_account', { account_id: 'acc_missing' }), /^404 not_found: /);
  });

  it('serves several clients at once, each on its own stateless request', async () => {
    const clients = await Promise.all(Array.from({ length: 4 }, () => connectHttp(server)));
    try {
      const results = await Promise.all(clients.map((client) => client.call('list_accounts')));
      for (const result of results) assert.match(textOf(result), /^List accounts: 3 items\./);
    } finally {
      await Promise.all(clients.map((client) => client.close()));
    }
  });

  it('refuses another Host (DNS rebinding) and another Origin, with nothing done', async () => {
    const rebound = await post(server.url, { host: 'attacker.example:80' }, initialize);
    assert.equal(rebound.status, 403);
    assert.match(rebound.body, /Invalid Host header: attacker\.example:80/);
    const foreign = await post(server.url, { origin: 'https://attacker.example' }, initialize);
    assert.equal(foreign.status, 403);
    assert.match(foreign.body, /Invalid Origin header/);
    const local = await post(server.url, { origin: `http://localhost:5173` }, initialize);
    assert.equal(local.status, 200, local.body);
  });

  it('answers GET and DELETE with 405 (no sessions), another path with 404, and a malformed body with a JSON-RPC error', async () => {
    const get = await post(server.url, {}, undefined, 'GET');
    assert.equal(get.status, 405);
    assert.equal((await post(server.url, {}, undefined, 'DELETE')).status, 405);
    assert.equal((await post(server.url.replace('/mcp', '/other'), {}, initialize)).status, 404);
    const malformed = await new Promise<number>((resolve, reject) => {
      const target = new URL(server.url);
      const req = request(
        {
          host: target.hostname,
          port: target.port,
          path: target.pathname,
          method: 'POST',
          headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        },
        (res) => {
          res.resume();
          resolve(res.statusCode!);
        },
      );
      req.on('error', reject);
      req.end('{"jsonrpc": ');
    });
    assert.equal(malformed, 400);
    // Still serving.
    assert.notEqual((await mcp.call('list_institutions')).isError, true);
  });
});

describe('--host', () => {
  it('another address is said to be unguarded', async () => {
    const open = await startHttp({ token: enrollment.token, baseUrl: sandbox.url, args: ['--host', '0.0.0.0'] });
    try {
      assert.match(open.url, /^http:\/\/0\.0\.0\.0:\d+\/mcp$/);
      assert.match(open.log(), /not a loopback address: whoever reaches it calls the API with this server's token/);
      assert.ok(!open.log().includes(enrollment.token));
    } finally {
      await open.stop();
    }
  });
});
