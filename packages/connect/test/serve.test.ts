// The widget as the sandbox serves it: each file with its type and headers, the frame framed only by the origin its
// URL names, conditional requests, and what answers before the widget is built.
import assert from 'node:assert/strict';
import { mkdtemp, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Hono } from 'hono';
import { describe, it } from 'vitest';
import { widgetDir } from '../src/assets.ts';
import { connectApp, frameContentSecurityPolicy } from '../src/serve.ts';
import { skipUnlessBuilt } from './support.ts';

const skip = skipUnlessBuilt();

function mounted(root?: string): Hono {
  const app = new Hono();
  app.route('/connect', connectApp(root ? { root } : {}));
  app.notFound((c) => c.json({ error: { code: 'not_found', message: 'No route.' } }, 404));
  return app;
}

const frameAncestors = (policy: string | null) => /frame-ancestors ([^;]+)/.exec(policy ?? '')?.[1];

describe.skipIf(skip)('connectApp mounted under /connect', () => {
  const app = mounted();

  it('serves connect.js to pages of any origin, as JavaScript that is never sniffed', async () => {
    const response = await app.request('/connect/connect.js');
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('content-type'), 'text/javascript; charset=utf-8');
    assert.equal(response.headers.get('access-control-allow-origin'), '*');
    assert.equal(response.headers.get('cross-origin-resource-policy'), 'cross-origin');
    assert.equal(response.headers.get('x-content-type-options'), 'nosniff');
    assert.match(await response.text(), /AggregationConnect/);
  });

  it('serves the frame with a policy that allows only its own files and API, framed by the origin it names', async () => {
    const response = await app.request('/connect/?origin=http%3A%2F%2Flocalhost%3A5173&channel=x');
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('content-type'), 'text/html; charset=utf-8');
    const policy = response.headers.get('content-security-policy');
    assert.equal(frameAncestors(policy), 'http://localhost:5173');
    for (const directive of [
      "default-src 'none'",
      "script-src 'self'",
      "style-src 'self'",
      "connect-src 'self'",
      "base-uri 'none'",
      "form-action 'none'",
    ]) {
      assert.ok(policy?.includes(directive), `${directive} in ${policy}`);
    }
    assert.equal(response.headers.get('referrer-policy'), 'no-referrer');
    assert.match(await response.text(), /<script src="frame\.js" defer><\/script>/);
  });

  it('lets no page frame it when the origin is missing or anything but an http(s) origin', async () => {
    for (const origin of [
      undefined,
      '',
      'null',
      'file://',
      'javascript:alert(1)',
      'http://localhost:5173/',
      'http://a.example/path',
      "http://a.example 'unsafe-inline'",
      'http://a.example; script-src *',
      'ftp://a.example',
    ]) {
      const query = origin === undefined ? '' : `?origin=${encodeURIComponent(origin)}`;
      const response = await app.request(`/connect/${query}`);
      assert.equal(frameAncestors(response.headers.get('content-security-policy')), "'none'", String(origin));
    }
    assert.equal(frameContentSecurityPolicy('https://app.example:8443').endsWith('frame-ancestors https://app.example:8443'), true);
  });

  it('serves the frame script and style to its own origin only', async () => {
    for (const [path, type] of [
      ['/connect/frame.js', 'text/javascript; charset=utf-8'],
      ['/connect/frame.css', 'text/css; charset=utf-8'],
    ] as const) {
      const response = await app.request(path);
      assert.equal(response.status, 200, path);
      assert.equal(response.headers.get('content-type'), type, path);
      assert.equal(response.headers.get('cross-origin-resource-policy'), 'same-origin', path);
      assert.equal(response.headers.get('access-control-allow-origin'), null, path);
    }
  });

  it('redirects /connect to /connect/, keeping the query, so the frame finds its files', async () => {
    const response = await app.request('/connect?origin=http%3A%2F%2Fa.example&channel=x');
    assert.equal(response.status, 301);
    assert.equal(response.headers.get('location'), '/connect/?origin=http%3A%2F%2Fa.example&channel=x');
  });

  it('reads a file again when a new build replaced it', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'connect-rebuilt-'));
    try {
      await writeFile(join(dir, 'connect.js'), 'first build');
      const app = mounted(dir);
      assert.equal(await (await app.request('/connect/connect.js')).text(), 'first build');
      assert.equal(await (await app.request('/connect/connect.js')).text(), 'first build');
      await writeFile(join(dir, 'connect.js'), 'second build');
      await utimes(join(dir, 'connect.js'), new Date(), new Date(Date.now() + 5_000));
      assert.equal(await (await app.request('/connect/connect.js')).text(), 'second build');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('answers 304 to a request that has the current ETag', async () => {
    const first = await app.request('/connect/connect.js');
    const etag = first.headers.get('etag');
    assert.match(etag ?? '', /^"[0-9a-f]+-[0-9a-f]+"$/);
    const again = await app.request('/connect/connect.js', { headers: { 'if-none-match': etag! } });
    assert.equal(again.status, 304);
    assert.equal(await again.text(), '');
  });

  it('answers 404 outside the built files', async () => {
    for (const path of [
      '/connect/nothing.js',
      '/connect/../package.json',
      '/connect/%2e%2e/package.json',
      '/connect/x/connect.js',
      '/connect/index.html/x',
    ]) {
      const response = await app.request(path);
      assert.equal(response.status, 404, path);
    }
  });
});

describe('connectApp before the widget is built', () => {
  it('answers 503 with the command that builds it', async () => {
    const empty = await mkdtemp(join(tmpdir(), 'connect-unbuilt-'));
    try {
      const response = await mounted(empty).request('/connect/connect.js');
      assert.equal(response.status, 503);
      assert.match(await response.text(), /npm run build -w @aggregation\/connect/);
    } finally {
      await rm(empty, { recursive: true, force: true });
    }
    assert.ok(widgetDir.endsWith(join('dist', 'widget')));
  });
});
