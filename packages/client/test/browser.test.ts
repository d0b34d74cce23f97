// The core in a real browser: the sources are served with their types stripped (as Node does) and imported as ES
// modules by headless Chromium, which then lists accounts against this test's server and verifies a webhook.
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { existsSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { stripTypeScriptTypes } from 'node:module';
import type { AddressInfo } from 'node:net';
import { join, normalize } from 'node:path';
import { type Browser, chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { repoRoot } from './helpers/prism.ts';

const candidates = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'].filter(Boolean) as string[];
const executablePath = candidates.find((path) => existsSync(path));
const skip = executablePath ? false : 'Chromium is not installed (Debian package `chromium`, or set CHROMIUM_PATH)';

const src = join(import.meta.dirname, '..', 'src');
/** The packages the core imports, each served at `/vendor/<name>` where the page's import map sends it. */
const typesDir = join(repoRoot, 'packages', 'types');
/** The modules of @aggregation/types that run (those with a `default` export condition), as its package.json lists them. */
const typesModules = Object.entries(
  (JSON.parse(readFileSync(join(typesDir, 'package.json'), 'utf8')) as { exports: Record<string, { default?: string }> }).exports,
).flatMap(([subpath, conditions]) =>
  conditions.default ? [[`@aggregation/types${subpath.slice(1)}`, join(typesDir, conditions.default)] as const] : [],
);
const vendor = new Map<string, string>([['openapi-fetch', join(repoRoot, 'node_modules', 'openapi-fetch', 'dist', 'index.mjs')], ...typesModules]);
const importMap = { imports: Object.fromEntries([...vendor.keys()].map((name) => [name, `/vendor/${name}`])) };
// The page loads the core itself: a dynamic import() inside tab.evaluate would be rewritten by the test runner's
// module transform before it reaches the browser.
const page = `<!doctype html><meta charset="utf-8">
<script type="importmap">${JSON.stringify(importMap)}</script>
<script type="module">window.core = import('/src/index.ts');</script>`;

describe.skipIf(skip)('in a browser (headless Chromium)', () => {
  let server: Server;
  let origin: string;
  let browser: Browser;
  const seen: { authorization?: string | undefined; version?: string | undefined }[] = [];

  beforeAll(async () => {
    server = createServer((req, res) => {
      const url = new URL(req.url ?? '/', 'http://localhost');
      if (url.pathname === '/') return res.writeHead(200, { 'Content-Type': 'text/html' }).end(page);
      const vendored = url.pathname.startsWith('/vendor/') && vendor.get(url.pathname.slice('/vendor/'.length));
      if (vendored) return res.writeHead(200, { 'Content-Type': 'text/javascript' }).end(readFileSync(vendored));
      if (url.pathname.startsWith('/src/') && url.pathname.endsWith('.ts')) {
        const file = normalize(join(src, url.pathname.slice('/src/'.length)));
        if (!file.startsWith(src) || !existsSync(file)) return res.writeHead(404).end();
        return res.writeHead(200, { 'Content-Type': 'text/javascript' }).end(stripTypeScriptTypes(readFileSync(file, 'utf8')));
      }
      if (url.pathname === '/api/accounts') {
        seen.push({ authorization: req.headers.authorization, version: req.headers['service-version']?.toString() });
        return res
          .writeHead(200, { 'Content-Type': 'application/json', 'Service-Enrollment-Status': 'disconnected.mfa_required' })
          .end(JSON.stringify([{ id: 'acc_1', name: 'Checking', links: { self: '/accounts/acc_1' } }]));
      }
      res.writeHead(404).end();
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    browser = await chromium.launch({ executablePath, args: ['--no-sandbox', '--disable-background-networking'] });
  });

  afterAll(async () => {
    await browser?.close();
    server?.close();
  });

  it('imports the core, calls the API with fetch and verifies a webhook with Web Crypto', async () => {
    const tab = await browser.newPage();
    const errors: string[] = [];
    tab.on('pageerror', (error) => errors.push(error.message));
    await tab.goto(origin);
    const result = await tab.evaluate(async () => {
      const core = await (window as unknown as { core: Promise<typeof import('../src/index.ts')> }).core;
      const client = core.createClient({ token: 'test_token_browser', baseUrl: `${location.origin}/api`, version: '2020-10-12' });
      const accounts = await client.accounts.list();
      const body = '{"id":"evt_1","type":"webhook.test","timestamp":"2024-05-01T12:00:00Z","payload":{}}';
      const header = await core.signWebhook(body, ['whsec_a', 'whsec_b'], { timestamp: 1714564800 });
      const event = await core.verifyWebhook(body, header, 'whsec_b', { now: 1714564800_000 });
      let forged = '';
      try {
        await core.verifyWebhook(body.replace('evt_1', 'evt_2'), header, 'whsec_b', { now: 1714564800_000 });
      } catch (error) {
        forged = (error as { reason: string }).reason;
      }
      let live = '';
      try {
        core.createClient({ token: 'token_live' });
      } catch (error) {
        live = (error as Error).name;
      }
      return { ids: accounts.map((a: { id: string }) => a.id), status: client.enrollmentStatus, event: event.type, forged, live };
    });
    await tab.close();
    assert.deepEqual(errors, []);
    assert.deepEqual(result, {
      ids: ['acc_1'],
      status: { status: 'disconnected', reason: 'mfa_required', raw: 'disconnected.mfa_required' },
      event: 'webhook.test',
      forged: 'signature_mismatch',
      live: 'ConfigurationError',
    });
    assert.deepEqual(seen.at(-1), { authorization: `Basic ${btoa('test_token_browser:')}`, version: '2020-10-12' });
  });
});
