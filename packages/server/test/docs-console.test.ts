// The docs as the server serves them beside the sandbox: the guides and operations as Markdown, llms.txt, and the
// console at /docs/try/, which in headless Chromium enrolls a test user (at once, or through the enrollment widget this
// server serves at /connect/), sends GET /accounts to this same server and shows the answer (status, headers with
// Request-Id, the accounts, the curl line).
import assert from 'node:assert/strict';
import { chromiumArgs, findChromium, signInThroughWidget, skipWhenMissing, widgetFrame } from '@aggregation/test-support';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { HANG_GUARD_MS } from '../../../vitest.shared.ts';
import { type RunningServer, startServer } from '../src/index.ts';

const chromiumPath = findChromium();
const noChromium = skipWhenMissing('the console in a browser', !chromiumPath && "Chromium is not installed (Debian's chromium, or set CHROMIUM_PATH)");

describe('the docs served by the sandbox server', () => {
  let server: RunningServer;
  let browser: Browser | undefined;
  beforeAll(async () => {
    server = await startServer({ port: 0, hostname: '127.0.0.1', webhooks: { autostart: false } });
    if (!noChromium) browser = await chromium.launch({ executablePath: chromiumPath!, args: chromiumArgs });
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  /** The console on GET /accounts, in a new tab that records the page's errors. */
  async function openConsole() {
    const page = await browser!.newPage();
    // Waits for the sandbox's answers take as long as a loaded machine takes; one gives up, saying what it waited
    // for, only within the hang guard.
    page.setDefaultTimeout(HANG_GUARD_MS / 2);
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await page.goto(`${server.url}/docs/try/?document=2020-10-12&operation=listAccounts`);
    return { page, errors };
  }

  /** Sends the chosen operation with the token filled in: 200, and the accounts it shows. */
  async function sendAccounts(page: Page): Promise<{ token: string; accounts: { id: string; institution: { name: string } }[] }> {
    const token = await page.getByLabel('Sandbox access token').inputValue();
    assert.match(token, /^test_token_/);
    await page.getByRole('button', { name: 'Send' }).click();
    await page.locator('#status[data-status]').waitFor();
    assert.match((await page.locator('#status').textContent()) ?? '', /^200\b/);
    return { token, accounts: JSON.parse((await page.locator('#response-body').textContent()) ?? '') };
  }

  it('answers /docs/guides/quickstart.md and an operation as Markdown, and /docs/llms.txt as text', async () => {
    for (const path of ['/docs/guides/quickstart.md', '/docs/reference/2020-10-12/listAccounts.md']) {
      const response = await fetch(`${server.url}${path}`);
      assert.equal(response.status, 200, path);
      assert.equal(response.headers.get('content-type'), 'text/markdown; charset=utf-8', path);
      assert.match(await response.text(), /^# /, path);
    }
    const llms = await fetch(`${server.url}/docs/llms.txt`);
    assert.equal(llms.status, 200);
    assert.match(await llms.text(), /\(reference\/2020-10-12\/listAccounts\.md\)/);
  });

  it.skipIf(noChromium)('the console enrolls a test user, sends GET /accounts and shows 200, Request-Id, the accounts and the curl line', async () => {
    const { page, errors } = await openConsole();
    assert.equal(await page.locator('#operation').inputValue(), '2020-10-12/listAccounts');
    await page.getByRole('button', { name: 'Enroll a test user' }).click();
    await page.locator('#enroll-status', { hasText: /^Enrolled enr_/ }).waitFor();
    const { token, accounts } = await sendAccounts(page);
    const headers = await page.locator('#headers tbody tr').allInnerTexts();
    assert.ok(
      headers.some((row) => /^request-id\s+\S+/i.test(row)),
      headers.join('\n'),
    );
    assert.ok(accounts.length > 0 && accounts.every((account) => account.id.startsWith('acc_')));
    // The same accounts as the API gives that token.
    const direct = (await (await fetch(`${server.url}/accounts`, { headers: { authorization: `Basic ${btoa(`${token}:`)}` } })).json()) as {
      id: string;
    }[];
    assert.deepEqual(
      accounts.map((account) => account.id),
      direct.map((account) => account.id),
    );
    const curl = (await page.locator('#curl').textContent()) ?? '';
    assert.ok(curl.includes(`-u '${token}:'`) && curl.includes(`'${server.url}/accounts'`), curl);
    assert.deepEqual(errors, []);
  });

  it.skipIf(noChromium)(
    'the console enrolls through the widget: an institution, a sign-in, the accounts; then its token is filled in and answers',
    async () => {
      const { page, errors } = await openConsole();
      assert.equal(await page.getByLabel('Application id (for the widget)').inputValue(), 'app_default');
      await page.getByRole('button', { name: 'Connect through the widget' }).click();
      const frame = await widgetFrame(page);
      await signInThroughWidget(frame, { search: 'wells', institution: 'Wells Fargo', username: 'username' });
      await frame.getByRole('heading', { name: 'Choose accounts' }).waitFor();
      await frame.getByRole('button', { name: 'Continue' }).click();
      await frame.getByRole('heading', { name: 'Connected' }).waitFor();
      await frame.getByRole('button', { name: 'Continue' }).click();
      await page.locator('#enroll-status', { hasText: /^Enrolled enr_\S+ at Wells Fargo through the widget/ }).waitFor();
      const { accounts } = await sendAccounts(page);
      assert.ok(accounts.length > 0 && accounts.every((account) => account.institution.name === 'Wells Fargo'));
      assert.deepEqual(errors, []);
    },
  );
});
