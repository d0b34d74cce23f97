// The script, the loader and the hook in Chromium, on a page of another origin than the server that serves the widget
// (connectApp alone: these tests are about the page's side; the steps against a sandbox are apps/connect-example's).
// Without the sandbox's API, opening the widget ends on its failure step, which is what the dialog's behaviour (focus,
// inert page, Escape) is checked on here.
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { chromiumArgs, findChromium, skipWhenMissing, widgetFrame } from '@aggregation/test-support';
import { createAdaptorServer } from '@hono/node-server';
import { build } from 'esbuild';
import { Hono } from 'hono';
import { type Browser, chromium, type Frame, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { HANG_GUARD_MS } from '../../../vitest.shared.ts';
import packageJson from '../package.json' with { type: 'json' };
import { connectApp } from '../src/serve.ts';
import { skipUnlessBuilt } from './support.ts';

const chromiumPath = findChromium();
const skip =
  skipWhenMissing('the widget in a browser', !chromiumPath && "Chromium is not installed (Debian's chromium, or set CHROMIUM_PATH)") ||
  skipUnlessBuilt();

const HOST_PAGE = `<!doctype html><html lang="en"><head><title>An integrator's page</title></head><body>
<header><a href="#main" id="skip">Skip</a></header>
<main id="main"><h1>Accounts</h1><button id="opener" type="button">Connect your bank</button></main>
<script src="/page.js"></script></body></html>`;

type Entry = [string, ...unknown[]];

async function listen(server: Server | ReturnType<typeof createAdaptorServer>): Promise<string> {
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

describe.skipIf(skip)('the widget in Chromium, embedded by a page of another origin', () => {
  let browser: Browser;
  let sandbox: ReturnType<typeof createAdaptorServer>;
  let host: Server;
  let sandboxUrl: string;
  let hostUrl: string;
  let silentUrl: string;

  beforeAll(async () => {
    const app = new Hono();
    app.route('/connect', connectApp());
    sandbox = createAdaptorServer({ fetch: app.fetch });
    sandboxUrl = await listen(sandbox);
    const bundled = await build({
      entryPoints: [join(import.meta.dirname, 'fixtures', 'page.ts')],
      bundle: true,
      format: 'iife',
      write: false,
      define: { 'process.env.NODE_ENV': '"production"' },
      logLevel: 'warning',
    });
    const pageScript = bundled.outputFiles[0]!.text;
    // A port nothing listens on: taken, then given back.
    const closed = createServer();
    silentUrl = await listen(closed);
    await new Promise((resolve) => closed.close(resolve));
    // The page has a policy of its own, as careful integrators' pages do: no inline script or style.
    const policy = `default-src 'self'; script-src 'self' ${sandboxUrl} ${silentUrl}; frame-src ${sandboxUrl}; connect-src 'self' ${sandboxUrl} ${silentUrl}`;
    host = createServer((request, response) => {
      if (request.url === '/') return response.writeHead(200, { 'content-type': 'text/html', 'content-security-policy': policy }).end(HOST_PAGE);
      if (request.url === '/page.js') return response.writeHead(200, { 'content-type': 'text/javascript' }).end(pageScript);
      response.writeHead(404).end();
    });
    hostUrl = await listen(host);
    browser = await chromium.launch({ executablePath: chromiumPath!, args: chromiumArgs });
  });

  afterAll(async () => {
    await browser?.close();
    await Promise.all([sandbox, host].map((server) => server && new Promise((resolve) => server.close(resolve))));
  });

  async function newPage(): Promise<{ page: Page; errors: string[] }> {
    const page = await browser.newPage();
    // Waits last as long as a loaded machine takes; one gives up, saying what it waited for, within the hang guard.
    page.setDefaultTimeout(HANG_GUARD_MS / 2);
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await page.goto(hostUrl);
    return { page, errors };
  }

  const recorded = (page: Page) => page.evaluate(() => (window as unknown as { record: Entry[] }).record);
  const waitFor = (page: Page, name: string) =>
    page.waitForFunction((wanted) => (window as unknown as { record: Entry[] }).record.some((entry) => entry[0] === wanted), name);

  /** Sets the widget up from the page, recording every callback under `name.*`. */
  const setUp = (page: Page, options: Record<string, unknown>) =>
    page.evaluate((given) => {
      const { record, loadConnect } = window as unknown as { record: Entry[]; loadConnect: (options: { baseUrl: string }) => Promise<any> };
      return loadConnect({ baseUrl: given.baseUrl as string }).then((connect) => {
        const handler = connect.setup({
          ...given,
          onInit: () => record.push(['init']),
          onSuccess: (result: unknown) => record.push(['success', result]),
          onExit: (exit: unknown) => record.push(['exit', exit]),
          onFailure: (failure: unknown) => record.push(['failure', failure]),
          onEvent: (name: string, data: unknown) => record.push(['event', name, data]),
        });
        (window as unknown as { handler: unknown }).handler = handler;
        document.getElementById('opener')!.addEventListener('click', () => handler.open());
      });
    }, options);

  /** The widget's frame, once it shows a step whose heading is `title`. */
  async function frameShowing(page: Page, title: RegExp): Promise<Frame> {
    const frame = await widgetFrame(page);
    await frame.getByRole('heading', { name: title }).waitFor();
    return frame;
  }

  it('loadConnect adds connect.js once, however often it is called, and resolves to AggregationConnect', async () => {
    const { page, errors } = await newPage();
    const result = await page.evaluate(async (baseUrl) => {
      const { loadConnect } = window as unknown as { loadConnect: (options: { baseUrl: string }) => Promise<any> };
      const [first, second] = await Promise.all([loadConnect({ baseUrl }), loadConnect({ baseUrl: `${baseUrl}/` })]);
      const third = await loadConnect({ baseUrl });
      return {
        same: first === second && second === third && first === (window as unknown as { AggregationConnect: unknown }).AggregationConnect,
        scripts: document.querySelectorAll('script[src$="/connect/connect.js"]').length,
        version: first.version,
        frozen: Object.isFrozen(first),
      };
    }, sandboxUrl);
    assert.deepEqual(result, { same: true, scripts: 1, version: packageJson.version, frozen: true });
    assert.deepEqual(errors, []);
  });

  it('loadConnect rejects with network.unreachable where nothing answers and widget.unavailable where no widget is served, and tries again', async () => {
    const { page } = await newPage();
    const outcome = await page.evaluate(
      async ({ silent, other }) => {
        const { loadConnect, ConnectLoadError } = window as unknown as {
          loadConnect: (options: { baseUrl: string }) => Promise<unknown>;
          ConnectLoadError: new () => Error;
        };
        const codeOf = (promise: Promise<unknown>) =>
          promise.then(
            () => 'resolved',
            (error) => `${error instanceof ConnectLoadError}:${(error as { code: string }).code}`,
          );
        const first = await codeOf(loadConnect({ baseUrl: silent }));
        const again = await codeOf(loadConnect({ baseUrl: silent }));
        const wrong = await codeOf(loadConnect({ baseUrl: other }));
        return { first, again, wrong, scripts: document.querySelectorAll('script[src$="/connect/connect.js"]').length };
      },
      { silent: silentUrl, other: hostUrl },
    );
    assert.deepEqual(outcome, { first: 'true:network.unreachable', again: 'true:network.unreachable', wrong: 'true:widget.unavailable', scripts: 0 });
  });

  it('setup refuses options of the wrong type or value with a TypeError naming the option', async () => {
    const { page } = await newPage();
    const messages = await page.evaluate(async (baseUrl) => {
      const connect = await (window as unknown as { loadConnect: (options: { baseUrl: string }) => Promise<any> }).loadConnect({ baseUrl });
      const onSuccess = () => {};
      const cases: Record<string, unknown>[] = [
        { onSuccess },
        { applicationId: 42, onSuccess },
        { applicationId: 'app_default' },
        { applicationId: 'app_default', onSuccess, selectAccount: 'all' },
        { applicationId: 'app_default', onSuccess, environment: 'production' },
        { applicationId: 'app_default', onSuccess, products: ['transactions', 'crypto'] },
        { applicationId: 'app_default', onSuccess, connectToken: 'ct_1', enrollmentId: 'enr_1' },
        { applicationId: 'app_default', onSuccess, connectToken: 'ct_1', nonce: 'n' },
        { applicationId: 'app_default', onSuccess, onExit: 'no' },
        { applicationId: 'app_default', onSuccess, baseUrl: 'ftp://example.com' },
      ];
      return cases.map((options) => {
        try {
          connect.setup({ baseUrl, ...options });
          return 'accepted';
        } catch (error) {
          return `${(error as Error).name}: ${(error as Error).message}`;
        }
      });
    }, sandboxUrl);
    const expected = [
      /applicationId is required/,
      /applicationId must be a non-empty string/,
      /onSuccess is required/,
      /selectAccount must be one of disabled, single, multiple/,
      /environment must be 'sandbox'/,
      /products must be an array of/,
      /connectToken and enrollmentId exclude each other/,
      /products, selectAccount and nonce do not apply/,
      /onExit must be a function/,
      /baseUrl must be http or https/,
    ];
    assert.equal(messages.length, expected.length);
    for (const [index, pattern] of expected.entries()) {
      assert.match(messages[index]!, /^TypeError: /, messages[index]);
      assert.match(messages[index]!, pattern);
    }
  });

  it('a baseUrl that does not answer ends in onFailure with network.unreachable, and open() tries again', async () => {
    const { page } = await newPage();
    // The script itself from the server that answers; the widget pointed at the one that does not.
    await page.evaluate(
      (baseUrl) => (window as unknown as { loadConnect: (options: { baseUrl: string }) => Promise<unknown> }).loadConnect({ baseUrl }),
      sandboxUrl,
    );
    await setUp(page, { baseUrl: silentUrl, applicationId: 'app_default' });
    await waitFor(page, 'failure');
    await page.click('#opener');
    await page.waitForFunction(() => (window as unknown as { record: Entry[] }).record.filter((entry) => entry[0] === 'failure').length === 2);
    const failures = (await recorded(page)).filter((entry) => entry[0] === 'failure');
    for (const [, failure] of failures) {
      assert.equal((failure as { error: { code: string } }).error.code, 'network.unreachable');
      assert.match((failure as { error: { message: string } }).error.message, new RegExp(silentUrl.replaceAll('.', '\\.')));
    }
    assert.equal(await page.locator('iframe').count(), 0);
    assert.ok(!(await recorded(page)).some((entry) => entry[0] === 'init'));
  });

  it('open() shows a modal dialog: the page behind is inert and still, Tab stays in the dialog, and closing gives focus back', async () => {
    const { page, errors } = await newPage();
    await setUp(page, { baseUrl: sandboxUrl, applicationId: 'app_default' });
    await waitFor(page, 'init');
    await page.focus('#opener');
    await page.keyboard.press('Enter');
    // No sandbox API behind connectApp here: creating the session fails, and the failure step shows.
    const frame = await frameShowing(page, /could not continue/);
    await waitFor(page, 'failure');
    assert.deepEqual(
      await page.evaluate(() => ({
        inert: [...document.body.children]
          .filter((element) => element.tagName !== 'IFRAME' && element.tagName !== 'SCRIPT')
          .map((element) => (element as HTMLElement).inert),
        overflow: document.documentElement.style.overflow,
      })),
      { inert: [true, true], overflow: 'hidden' },
    );
    // Over the whole viewport, though the page's policy forbids inline styles.
    assert.deepEqual(await page.locator('iframe').boundingBox(), { x: 0, y: 0, ...page.viewportSize()! });
    const dialog = frame.getByRole('dialog');
    assert.equal(await dialog.getAttribute('aria-modal'), 'true');
    assert.equal(await dialog.getAttribute('aria-labelledby'), 'step-title');
    // Focus starts on the step's heading; Tab visits the dialog's controls and wraps around without leaving it.
    assert.equal(await frame.evaluate(() => document.activeElement?.id), 'step-title');
    const focused = () => frame.evaluate(() => (document.activeElement?.id || document.activeElement?.className) ?? '');
    const visited: string[] = [];
    for (let press = 0; press < 4; press++) {
      await page.keyboard.press('Tab');
      visited.push(await focused());
    }
    assert.deepEqual(visited, ['primary', 'close', 'primary', 'close']);
    await page.keyboard.press('Shift+Tab');
    assert.equal(await focused(), 'primary');
    // Focus is visible on each control.
    const outline = await frame.evaluate(() => getComputedStyle(document.activeElement!).outlineStyle);
    assert.equal(outline, 'solid');
    await page.keyboard.press('Escape');
    await page.waitForSelector('iframe', { state: 'hidden' });
    assert.equal(await page.evaluate(() => document.activeElement?.id), 'opener');
    assert.deepEqual(
      await page.evaluate(() => ({
        inert: [...document.body.children].some((element) => (element as HTMLElement).inert),
        overflow: document.documentElement.style.overflow,
      })),
      { inert: false, overflow: '' },
    );
    const failures = (await recorded(page)).filter((entry) => entry[0] === 'failure' || entry[0] === 'exit');
    assert.equal(failures.length, 1, 'one failure, and no exit after it');
    assert.deepEqual(errors, []);
  });

  it('takes messages only from its own frame and channel: a page script cannot forge a result', async () => {
    const { page } = await newPage();
    await setUp(page, { baseUrl: sandboxUrl, applicationId: 'app_default' });
    await waitFor(page, 'init');
    const received = await page.evaluate(async () => {
      const frame = document.querySelector('iframe')!;
      const channel = new URL(frame.src).searchParams.get('channel');
      const forged = { source: 'aggregation-connect', channel, type: 'success', result: { accessToken: 'test_token_forged' } };
      const marker = new Promise((resolve) => window.addEventListener('message', (event) => event.data === 'marker' && resolve(true)));
      // From the page itself, with the right channel; then a marker posted after it, which arrives after it.
      window.postMessage(forged, '*');
      window.postMessage('marker', '*');
      await marker;
      return (window as unknown as { record: Entry[] }).record.map((entry) => entry[0]);
    });
    assert.deepEqual(received, ['init']);
  });

  it('the frame lets only the origin its URL names frame it', async () => {
    const { page } = await newPage();
    const refused = page.waitForEvent('console', (message) => /frame-ancestors/.test(message.text()));
    await page.evaluate(
      (src) => {
        const frame = document.createElement('iframe');
        frame.src = src;
        document.body.append(frame);
      },
      `${sandboxUrl}/connect/?origin=${encodeURIComponent('http://app.example')}&channel=${crypto.randomUUID()}`,
    );
    assert.match((await refused).text(), /violates the following Content Security Policy directive: "frame-ancestors http:\/\/app\.example"/);
  });

  it('useConnect: ready once loaded, open shows the widget, and a baseUrl that does not answer sets error', async () => {
    const { page, errors } = await newPage();
    await page.evaluate(
      (baseUrl) => (window as unknown as { mountHook: (props: unknown) => void }).mountHook({ baseUrl, applicationId: 'app_default' }),
      sandboxUrl,
    );
    await page.locator('#hook-state', { hasText: '{"ready":true,"error":null}' }).waitFor();
    await page.click('#hook-open');
    await frameShowing(page, /could not continue/);
    const events = (await recorded(page)).filter((entry) => entry[0] === 'hook.event').map((entry) => entry[1]);
    assert.deepEqual(events.slice(0, 2), ['step', 'open']);
    await page.keyboard.press('Escape');
    await page.waitForSelector('iframe', { state: 'hidden' });

    const second = await newPage();
    await second.page.evaluate(
      (baseUrl) => (window as unknown as { mountHook: (props: unknown) => void }).mountHook({ baseUrl, applicationId: 'app_default' }),
      silentUrl,
    );
    await second.page.locator('#hook-state', { hasText: '{"ready":false,"error":"network.unreachable"}' }).waitFor();
    assert.ok((await recorded(second.page)).some((entry) => entry[0] === 'hook.failure'));
    assert.deepEqual([...errors, ...second.errors], []);
  });
});
