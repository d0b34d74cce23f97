// The recorder in front of the server: any method and path pass through as sent, answers stream, the bodies of errors
// and of writes' answers are kept.
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, test, vi } from 'vitest';
import { type Recorder, startRecorder } from '../src/recorder.ts';

const seen: string[] = [];
const upstream = createServer((req, res) => {
  seen.push(`${req.method} ${req.url}`);
  if (req.url === '/stream') {
    res.writeHead(200, { 'content-type': 'application/x-ndjson' });
    res.write('{"n":1}\n');
    return;
  }
  if (req.url === '/made') return res.writeHead(200, { 'content-type': 'application/json' }).end('{"connect_token":"ct_1"}');
  if (req.url === '/gone')
    return res.writeHead(404, { 'content-type': 'application/json', 'content-encoding': 'gzip' }).end(gzipSync('{"error":{"code":"not_found"}}'));
  res.writeHead(405, { 'content-type': 'application/json' }).end('{"error":{"code":"method_not_allowed"}}');
});
let recorder: Recorder;

beforeAll(async () => {
  upstream.listen(0, '127.0.0.1');
  await once(upstream, 'listening');
  recorder = await startRecorder(`http://127.0.0.1:${(upstream.address() as AddressInfo).port}`);
});
afterAll(async () => {
  await recorder.close();
  upstream.closeAllConnections();
  upstream.close();
});

/** A raw request (fetch refuses TRACE and normalizes paths). */
function send(method: string, path: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const { hostname, port } = new URL(recorder.url);
    const req = request({ hostname, port, path, method }, async (res) => {
      let body = '';
      for await (const chunk of res) body += chunk;
      resolve({ status: res.statusCode!, body });
    });
    req.on('error', reject);
    req.end();
  });
}

test('any method and any path reach the server as they were sent; the error body is kept', async () => {
  const answer = await send('TRACE', '/accounts/../x?a=%00');
  assert.equal(answer.status, 405);
  assert.ok(seen.includes('TRACE /accounts/../x?a=%00'));
  const exchange = recorder.exchanges.find((e) => e.method === 'TRACE')!;
  assert.equal(exchange.path, '/accounts/../x');
  assert.equal(exchange.answerBody, '{"error":{"code":"method_not_allowed"}}');
});

test('an encoded error body is passed on as it is and kept decoded', async () => {
  const response = await fetch(`${recorder.url}/gone`);
  assert.equal(response.status, 404);
  assert.deepEqual(await response.json(), { error: { code: 'not_found' } });
  // The body is kept when the answer has ended, which the client may see a moment before the recorder does.
  await vi.waitFor(() => assert.equal(recorder.exchanges.find((e) => e.path === '/gone')?.answerBody, '{"error":{"code":"not_found"}}'), {
    timeout: 60_000,
  });
});

test("a write's answer is kept whatever its status, a read's success is not", async () => {
  for (const method of ['POST', 'GET']) {
    const answer = await fetch(`${recorder.url}/made`, { method, ...(method === 'POST' ? { body: '{}' } : {}) });
    assert.deepEqual([answer.status, await answer.text()], [200, '{"connect_token":"ct_1"}']);
  }
  await vi.waitFor(
    () => assert.equal(recorder.exchanges.find((e) => e.method === 'POST' && e.path === '/made')?.answerBody, '{"connect_token":"ct_1"}'),
    {
      timeout: 60_000,
    },
  );
  assert.equal(recorder.exchanges.find((e) => e.method === 'GET' && e.path === '/made')!.answerBody, undefined);
});

test('an answer that never ends streams through', async () => {
  const controller = new AbortController();
  const response = await fetch(`${recorder.url}/stream`, { signal: controller.signal });
  const reader = response.body!.getReader();
  const { value } = await reader.read();
  assert.equal(new TextDecoder().decode(value), '{"n":1}\n');
  controller.abort();
});
