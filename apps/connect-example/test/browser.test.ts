// The example app in headless Chromium against the sandbox as `npm start` starts it: every journey of a user of the
// widget, driven with the keyboard, and every failure path, each checked in the page and through the sandbox's API.
// axe-core runs inside the widget's frame on every step, in the light and the dark color scheme.
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { chromiumArgs, findChromium, seriousViolations, skipWhenMissing, WIDGET_FRAME, widgetFrame } from '@aggregation/test-support';
import { createAdaptorServer } from '@hono/node-server';
import { type Browser, type BrowserContext, chromium, type Frame, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { HANG_GUARD_MS } from '../../../vitest.shared.ts';
import { exampleApp } from '../src/app.ts';
import { applicationVerifier } from '../src/verify.ts';
import { close, listen, type Sandbox, startReceiver, startSandbox, unansweredUrl } from './support.ts';

const chromiumPath = findChromium();
const skip = skipWhenMissing('the example in a browser', !chromiumPath && "Chromium is not installed (Debian's chromium, or set CHROMIUM_PATH)");

type Answer = { status: number; body: any; headers: Headers };

describe.skipIf(skip)('the example app on the enrollment widget, in Chromium, against the sandbox of npm start', () => {
  let sandbox: Sandbox;
  let example: ReturnType<typeof createAdaptorServer>;
  let exampleUrl: string;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let browser: Browser;
  /** axe-core's findings per step and color scheme, filled by the journeys and asserted by the last test. */
  const axeFindings = new Map<string, string[]>();

  beforeAll(async () => {
    sandbox = await startSandbox();
    const app = exampleApp({ sandboxUrl: sandbox.url, applicationId: 'app_default', verifier: await applicationVerifier(sandbox.url, 'app_default') });
    example = createAdaptorServer({ fetch: app.fetch });
    exampleUrl = await listen(example);
    receiver = await startReceiver();
    // The default application's events (every enrollment the widget makes here is the default application's).
    const webhook = await api('PUT', '/sandbox/webhook', sandbox.token, { url: receiver.url });
    assert.equal(webhook.status, 200, JSON.stringify(webhook.body));
    browser = await chromium.launch({ executablePath: chromiumPath!, args: chromiumArgs });
  });

  afterAll(async () => {
    await browser?.close();
    await close(example);
    await close(receiver?.server);
    await sandbox?.stop();
  });

  /** A call of the sandbox's API, with a token when given. */
  async function api(method: string, path: string, token?: string, body?: unknown): Promise<Answer> {
    const headers: Record<string, string> = {};
    if (token) headers.authorization = `Basic ${btoa(`${token}:`)}`;
    if (body !== undefined) headers['content-type'] = 'application/json';
    const response = await fetch(`${sandbox.url}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    const text = await response.text();
    return { status: response.status, body: text ? JSON.parse(text) : undefined, headers: response.headers };
  }

  /** A user of the example: a browser context of its own (its own cookie, so its own session on the backend). */
  async function user(options: { colorScheme?: 'light' | 'dark'; reducedMotion?: 'reduce' | 'no-preference' } = {}) {
    const context: BrowserContext = await browser.newContext({
      colorScheme: options.colorScheme ?? 'light',
      reducedMotion: options.reducedMotion ?? 'no-preference',
    });
    context.setDefaultTimeout(HANG_GUARD_MS / 2);
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    // What the widget's onSuccess gave the backend: the access token, which the page itself never shows.
    const results: any[] = [];
    page.on('request', (request) => {
      if (request.url() === `${exampleUrl}/api/enrollments` && request.method() === 'POST') results.push(request.postDataJSON());
    });
    await page.goto(exampleUrl);
    return { context, page, errors, results };
  }

  /** The widget's frame, once it shows the step whose heading matches `title`. */
  async function widget(page: Page, title: RegExp): Promise<Frame> {
    // The page keeps its enrollment widget's frame, hidden, beside the one it opens for a reconnect or an approval.
    const frame = await widgetFrame(page);
    // Over the whole viewport, under the page's own Content-Security-Policy.
    assert.deepEqual(await (await frame.frameElement()).boundingBox(), { x: 0, y: 0, ...page.viewportSize()! });
    // The failure step says why a step never came: its text is the test's message.
    const failed = frame.getByRole('heading', { level: 1, name: 'The widget could not continue' });
    await frame.getByRole('heading', { level: 1, name: title }).or(failed).waitFor();
    if (!title.test('The widget could not continue') && (await failed.isVisible())) assert.fail(await frame.locator('.failure').innerText());
    return frame;
  }

  /** Opens the page's widget with the keyboard once onInit has enabled its button: the frame, at `title`. */
  async function openConnect(page: Page, title = /^Select your institution$/): Promise<Frame> {
    await page.locator('#connect:not([disabled])').waitFor();
    await page.focus('#connect');
    await page.keyboard.press('Enter');
    return widget(page, title);
  }

  /** Every widget frame of the page is hidden again. */
  const widgetClosed = (page: Page) =>
    page.waitForFunction(
      (selector) => [...document.querySelectorAll(selector)].every((frame) => (frame as HTMLElement).offsetParent === null),
      WIDGET_FRAME,
    );

  /** axe-core on the step the frame shows, in both color schemes; the findings are asserted by the last test. */
  async function checkStep(page: Page, frame: Frame, step: string): Promise<void> {
    for (const colorScheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme });
      axeFindings.set(`${step} (${colorScheme})`, await seriousViolations(frame));
    }
    await page.emulateMedia({ colorScheme: 'light' });
  }

  /** The page's log of the widget's events (`name (step): code`), one line each. */
  const eventsLog = async (page: Page) => (await page.locator('#events li').allTextContents()).join('\n');

  /** The focused element of the frame shows a focus ring. */
  async function assertVisibleFocus(frame: Frame, where: string): Promise<void> {
    const ring = await frame.evaluate(() => {
      const element = document.activeElement as HTMLElement;
      const style = getComputedStyle(element);
      return { tag: element.tagName, outline: style.outlineStyle, width: Number.parseFloat(style.outlineWidth) };
    });
    assert.ok(ring.outline !== 'none' && ring.width >= 2, `${where}: ${ring.tag} has no visible focus (${ring.outline} ${ring.width}px)`);
  }

  async function press(page: Page, frame: Frame, key: string, where: string): Promise<void> {
    await page.keyboard.press(key);
    if (key === 'Tab' || key === 'Shift+Tab') await assertVisibleFocus(frame, where);
  }

  /** Institutions, then the sign-in of `username`: with the keyboard alone, a wrong password first when asked. */
  async function signIn(page: Page, frame: Frame, username: string, options: { wrongFirst?: boolean; check?: boolean } = {}): Promise<void> {
    await page.keyboard.type('chase');
    await frame
      .getByRole('status')
      .filter({ hasText: /^1 institution$/ })
      .waitFor();
    await press(page, frame, 'Tab', 'the first institution');
    await press(page, frame, 'Enter', 'choosing it');
    await frame.getByRole('heading', { name: 'Sign in to Chase' }).waitFor();
    if (options.check) await checkStep(page, frame, 'credentials');
    await page.keyboard.type(username);
    await press(page, frame, 'Tab', 'the password');
    if (options.wrongFirst) {
      await page.keyboard.type('not-the-password');
      await press(page, frame, 'Enter', 'signing in');
      const error = frame.getByRole('alert');
      await error.filter({ hasText: /\S/ }).waitFor();
      assert.equal(await frame.locator('#password').getAttribute('aria-invalid'), 'true');
      assert.equal(await frame.evaluate(() => document.activeElement?.id), 'password');
      if (options.check) await checkStep(page, frame, 'credentials with an error');
    }
    await page.keyboard.type('password');
    await press(page, frame, 'Enter', 'signing in');
  }

  /** Done: Tab to Continue and press it; the widget hands over. */
  async function finish(page: Page, frame: Frame, options: { check?: boolean } = {}): Promise<void> {
    await frame.getByRole('heading', { name: /^(Connected|Reconnected|Approved)$/ }).waitFor();
    if (options.check) await checkStep(page, frame, 'done');
    await press(page, frame, 'Tab', 'Continue');
    await press(page, frame, 'Enter', 'Continue');
    await widgetClosed(page);
  }

  /** The values of the accounts chosen on the accounts step. */
  const chosenAccounts = (frame: Frame) =>
    frame.locator('input[name="account"]:checked').evaluateAll((inputs) => inputs.map((input) => (input as HTMLInputElement).value));

  /** Another widget on the page, set up with `options` as an integrator would, and opened; resolves with its onSuccess result. */
  async function openOwnWidget(page: Page, options: Record<string, unknown>): Promise<() => Promise<unknown>> {
    await page.evaluate((options) => {
      const page = window as unknown as { AggregationConnect: any; ownResult?: unknown };
      page.ownResult = undefined;
      const handler = page.AggregationConnect.setup({
        applicationId: 'app_default',
        ...options,
        onSuccess: (result: unknown) => {
          page.ownResult = result;
          handler.destroy();
        },
      });
      handler.open();
    }, options);
    return async () => (await page.waitForFunction(() => (window as unknown as { ownResult?: unknown }).ownResult)).jsonValue();
  }

  /** The user who enrolled first: the journeys after it (pay, exit an approval, reconnect) go on with them. */
  let enrolled: { page: Page; token: string; enrollmentId: string; checking: string };

  it('enrolls with the keyboard alone: search, a wrong password, the right one, two of three accounts; the backend verifies it', async () => {
    const { page, errors, results } = await user();
    // The loading step, held until axe-core has looked at it.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route(`${sandbox.url}/sandbox/connect/sessions`, async (route) => {
      await held;
      await route.continue();
    });
    const frame = await openConnect(page, /^Connecting to the sandbox$/);
    await checkStep(page, frame, 'loading');
    release();
    await frame.getByRole('heading', { name: 'Select your institution' }).waitFor();
    await assertVisibleFocus(frame, 'the search field');
    await checkStep(page, frame, 'institutions');
    await signIn(page, frame, 'username', { wrongFirst: true, check: true });
    assert.match(await eventsLog(page), /error \(credentials\): credentials_invalid/);

    await frame.getByRole('heading', { name: 'Choose accounts' }).waitFor();
    await checkStep(page, frame, 'accounts');
    // Every account starts chosen; the second is left out with Space.
    await assertVisibleFocus(frame, 'the first account');
    await press(page, frame, 'Tab', 'the second account');
    await press(page, frame, 'Space', 'leaving it out');
    const chosen = await chosenAccounts(frame);
    assert.equal(chosen.length, 2);
    await press(page, frame, 'Tab', 'the third account');
    await press(page, frame, 'Tab', 'Continue');
    await press(page, frame, 'Enter', 'Continue');
    await finish(page, frame, { check: true });

    await page.locator('#status', { hasText: 'Showing 2 accounts.' }).waitFor();
    assert.equal(await page.locator('#accounts li').count(), 2);
    assert.ok((await page.locator('#transactions tbody tr').count()) > 0);
    assert.equal(await page.evaluate(() => document.activeElement?.id), 'accounts-heading', 'focus on what was connected');

    // The token works at once, for exactly the accounts chosen.
    const [result] = results;
    assert.match(result.accessToken, /^test_token_/);
    assert.match(result.user.id, /^usr_/);
    assert.deepEqual(result.enrollment.institution, { id: 'chase', name: 'Chase' });
    const accounts = await api('GET', '/accounts', result.accessToken);
    assert.deepEqual(accounts.body.map((account: { id: string }) => account.id).sort(), [...chosen].sort());

    // The backend refuses what the widget did not sign for this session: another token, or a replay in another session.
    const forged = await page.request.post(`${exampleUrl}/api/enrollments`, { data: { ...result, accessToken: sandbox.token } });
    assert.equal(forged.status(), 401);
    assert.equal((await forged.json()).error.code, 'signature_invalid');
    const other = await user();
    const replayed = await other.page.request.post(`${exampleUrl}/api/enrollments`, { data: result });
    assert.equal(replayed.status(), 401);
    await other.context.close();

    const checking = accounts.body.find((account: { subtype: string }) => account.subtype === 'checking');
    enrolled = { page, token: result.accessToken, enrollmentId: result.enrollment.id, checking: checking.id };
    assert.deepEqual(errors, []);
  });

  /** Sends the pay form with the keyboard; the bank holds the payment back: its connect_token, and the approval step. */
  async function payThroughMfa(page: Page): Promise<{ connectToken: string; frame: Frame }> {
    const challenged = page.waitForResponse((response) => response.url() === `${exampleUrl}/api/payments`);
    await page.focus('#pay-memo');
    await page.keyboard.press('Enter');
    const { connectToken } = await (await challenged).json();
    assert.ok(connectToken);
    return { connectToken, frame: await widget(page, /^Approve this payment$/) };
  }

  it('pays through MFA: the approval step, then the same request with the same Idempotency-Key makes the payment once', async () => {
    const { page, token, checking } = enrolled;
    await page.fill('#pay-memo', 'mfa');
    const { connectToken, frame } = await payThroughMfa(page);
    await checkStep(page, frame, 'approve');
    const summary = await frame.locator('dl.summary').innerText();
    assert.match(summary, /Amount\s+\$25\.00/);
    assert.match(summary, /To\s+Bob/);
    assert.equal(await frame.evaluate(() => document.activeElement?.textContent), 'Approve payment');
    await page.keyboard.press('Enter');
    await finish(page, frame);
    await page.locator('#pay-status', { hasText: /^Sent \$25\.00 \(reference \S+\)\.$/ }).waitFor();

    const challenge = await api('GET', `/sandbox/connect_tokens/${connectToken}`, token);
    assert.equal(challenge.body.status, 'completed');
    const payments = async () =>
      (await api('GET', `/accounts/${checking}/payments`, token)).body.filter((payment: { memo: string }) => payment.memo === 'mfa');
    assert.equal((await payments()).length, 1);
    // The same request with the same key again: the kept answer, no second payment.
    const again = await api('POST', `/accounts/${checking}/payments`, token, challenge.body.request);
    assert.equal(again.status, 200, 'without the key it is a new request, which the bank holds back again');
    const replay = await fetch(`${sandbox.url}/accounts/${checking}/payments`, {
      method: 'POST',
      headers: { authorization: `Basic ${btoa(`${token}:`)}`, 'content-type': 'application/json', 'idempotency-key': challenge.body.idempotency_key },
      body: JSON.stringify(challenge.body.request),
    });
    assert.equal(replay.status, 202);
    assert.equal(replay.headers.get('idempotent-replayed'), 'true');
    assert.equal((await payments()).length, 1);
  });

  it('approves a payee through MFA: the approval step names it, then the same request with the same key creates it once', async () => {
    const { page, token, checking } = enrolled;
    const payee = { scheme: 'zelle', address: 'mfa.payee@example.com', name: 'mfa', type: 'person' };
    const key = `payee-${Date.now()}`;
    const createPayee = () =>
      fetch(`${sandbox.url}/accounts/${checking}/payees`, {
        method: 'POST',
        headers: { authorization: `Basic ${btoa(`${token}:`)}`, 'content-type': 'application/json', 'idempotency-key': key },
        body: JSON.stringify(payee),
      });
    const challenged = await createPayee();
    assert.equal(challenged.status, 200);
    const { connect_token: connectToken } = await challenged.json();
    const approved = await openOwnWidget(page, { connectToken });
    const frame = await widget(page, /^Approve this payee$/);
    await checkStep(page, frame, 'approve a payee');
    const summary = await frame.locator('dl.summary').innerText();
    assert.match(summary, /Payee\s+mfa/);
    assert.match(summary, /Address\s+mfa\.payee@example\.com/);
    assert.equal(await frame.evaluate(() => document.activeElement?.textContent), 'Approve payee');
    await page.keyboard.press('Enter');
    await finish(page, frame);
    await approved();
    // Approved, not yet completed: that is the same request's to do.
    const status = async () => (await api('GET', `/sandbox/connect_tokens/${connectToken}`, token)).body.status;
    assert.equal(await status(), 'approved');

    // A payee is created with 200, as a challenge is answered: the body tells them apart.
    const created = await createPayee();
    const createdPayee = await created.json();
    assert.deepEqual([created.status, createdPayee.connect_token, createdPayee.name], [200, undefined, 'mfa']);
    assert.equal(await status(), 'completed');
    const replay = await createPayee();
    assert.equal(replay.status, 200);
    assert.equal(replay.headers.get('idempotent-replayed'), 'true');
    assert.equal((await replay.json()).id, createdPayee.id);
  });

  it('closing the approval leaves the payment unsent and its challenge pending; once expired, the widget fails with connect_token.expired', async () => {
    const { page, token, checking } = enrolled;
    await page.fill('#pay-amount', '30.00');
    const { connectToken } = await payThroughMfa(page);
    await page.keyboard.press('Escape');
    await page.locator('#pay-status', { hasText: 'Payment not sent: you closed the approval.' }).waitFor();
    assert.equal((await api('GET', `/sandbox/connect_tokens/${connectToken}`, token)).body.status, 'pending');
    const thirty = async () =>
      (await api('GET', `/accounts/${checking}/payments`, token)).body.filter((payment: { amount: string }) => payment.amount === '30.00');
    assert.deepEqual(await thirty(), []);

    // 31 minutes later on the enrollment's clock, past the challenge's 30.
    const advanced = await api('POST', '/sandbox/clock/advance', token, { seconds: 31 * 60 });
    assert.equal(advanced.status, 200);
    await page.focus('#approve-pending');
    await page.keyboard.press('Enter');
    const frame = await widget(page, /could not continue/);
    await checkStep(page, frame, 'failure');
    assert.match(await frame.locator('.failure').innerText(), /Error code: connect_token\.expired/);
    await page.locator('#pay-status', { hasText: /\(connect_token\.expired\)$/ }).waitFor();
    await page.keyboard.press('Escape');
    await widgetClosed(page);
    assert.equal((await api('GET', `/sandbox/connect_tokens/${connectToken}`, token)).body.status, 'expired');
    assert.deepEqual(await thirty(), []);
  });

  it('a user whose bank asks for a one-time code: a wrong code shows its error, the right one connects', async () => {
    const { page, context, errors } = await user();
    const frame = await openConnect(page);
    await signIn(page, frame, 'mfa.device');
    await frame.getByRole('heading', { name: 'Enter your code' }).waitFor();
    await checkStep(page, frame, 'mfa');
    assert.match(await frame.locator('#mfa-prompt').innerText(), /1234/);
    await page.keyboard.type('0000');
    await press(page, frame, 'Enter', 'verifying');
    await frame.getByRole('alert').filter({ hasText: /\S/ }).waitFor();
    assert.equal(await frame.locator('#mfa-code').getAttribute('aria-invalid'), 'true');
    await checkStep(page, frame, 'mfa with an error');
    await page.keyboard.type('1234');
    await press(page, frame, 'Enter', 'verifying');
    await frame.getByRole('heading', { name: 'Choose accounts' }).waitFor();
    for (const where of ['the second account', 'the third account', 'Continue']) await press(page, frame, 'Tab', where);
    await press(page, frame, 'Enter', 'Continue');
    await finish(page, frame);
    await page.locator('#status', { hasText: 'Showing 3 accounts.' }).waitFor();
    assert.match(await eventsLog(page), /error \(mfa\): mfa\.code_invalid/);
    assert.deepEqual(errors, []);
    await context.close();
  });

  /** What the failure paths must leave as it was, read through the sandbox's API. */
  async function sandboxState(other: { token: string; connectToken: string; enrollmentId: string }) {
    const [account, deliveries, challenge, otherAccounts] = await Promise.all([
      api('GET', '/accounts', sandbox.token),
      api('GET', '/sandbox/webhook/deliveries', sandbox.token),
      api('GET', `/sandbox/connect_tokens/${other.connectToken}`, other.token),
      api('GET', '/accounts', other.token),
    ]);
    const first = await api('GET', `/accounts/${account.body[0].id}`, sandbox.token);
    return {
      status: first.headers.get('service-enrollment-status'),
      accounts: account.body.map((entry: { id: string }) => entry.id),
      deliveries: deliveries.body.length,
      events: receiver.events.length,
      challenge: { status: challenge.body.status, approved: challenge.body.approved_at },
      otherAccounts: otherAccounts.body.length,
    };
  }

  it('closing the widget before the end connects nothing and changes nothing in the sandbox', async () => {
    const other = await otherApplication();
    const before = await sandboxState(other);
    const { page, context, errors } = await user();
    const frame = await openConnect(page);
    await signIn(page, frame, 'username');
    // Signed in, at the last step before the enrollment is made: the close button, by keyboard.
    await frame.getByRole('heading', { name: 'Choose accounts' }).waitFor();
    await frame.focus('#close');
    await page.keyboard.press('Enter');
    await page.locator('#status', { hasText: 'You closed the widget: nothing was connected.' }).waitFor();
    assert.equal(
      (await page.request.get(`${exampleUrl}/api/session`)).ok() && (await (await page.request.get(`${exampleUrl}/api/session`)).json()).enrollment,
      null,
    );
    assert.match(await eventsLog(page), /exit \(accounts\)$/);
    assert.deepEqual(await sandboxState(other), before);
    assert.deepEqual(errors, []);
    await context.close();
  });

  /** An application of its own, with an enrollment and a payment held back by MFA: what no other application may touch. */
  let another: { token: string; connectToken: string; enrollmentId: string } | undefined;
  async function otherApplication() {
    if (another) return another;
    const created = await api('POST', '/sandbox/applications', undefined, { name: 'Another app' });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const enrollment = await api('POST', '/sandbox/enrollments', created.body.key, { username: 'username', password: 'password' });
    assert.equal(enrollment.status, 201, JSON.stringify(enrollment.body));
    const token = enrollment.body.access_token;
    const checking = enrollment.body.accounts.find((account: { subtype: string }) => account.subtype === 'checking');
    const payment = await fetch(`${sandbox.url}/accounts/${checking.id}/payments`, {
      method: 'POST',
      headers: { authorization: `Basic ${btoa(`${token}:`)}`, 'content-type': 'application/json', 'idempotency-key': crypto.randomUUID() },
      body: JSON.stringify({ amount: '5.00', memo: 'mfa', payee: { scheme: 'zelle', address: 'amy@example.com', name: 'Amy', type: 'person' } }),
    });
    const { connect_token: connectToken } = (await payment.json()) as { connect_token: string };
    assert.ok(connectToken);
    another = { token, connectToken, enrollmentId: enrollment.body.enrollment.id };
    return another;
  }

  it("each bad input ends in onFailure with its code, and the sandbox's state is what it was", async () => {
    const other = await otherApplication();
    const healthy = (await api('GET', '/accounts', sandbox.token)).body[0].enrollment_id as string;
    const { page, context, errors } = await user();
    await page.locator('#connect:not([disabled])').waitFor();
    const cases: [string, Record<string, unknown>, string][] = [
      ['an unknown applicationId', { applicationId: 'app_nosuchapplication' }, 'application.not_found'],
      ['a connectToken of another application', { connectToken: other.connectToken }, 'connect_token.not_found'],
      ['the enrollmentId of a healthy enrollment', { enrollmentId: healthy }, 'enrollment.not_disconnected'],
      ['an unknown enrollmentId', { enrollmentId: 'enr_doesnotexist0' }, 'enrollment.not_found'],
      ["the enrollmentId of another application's enrollment", { enrollmentId: other.enrollmentId }, 'enrollment.not_found'],
      ['a baseUrl that does not answer', { baseUrl: await unansweredUrl() }, 'network.unreachable'],
    ];
    for (const [what, options, code] of cases) {
      const before = await sandboxState(other);
      const ended = await page.evaluate(
        (given) =>
          new Promise<{ outcome: string; code?: string }>((resolve) => {
            const connect = (window as any).AggregationConnect;
            const handler = connect.setup({
              applicationId: 'app_default',
              ...given,
              onSuccess: () => resolve({ outcome: 'success' }),
              onExit: () => resolve({ outcome: 'exit' }),
              onFailure: ({ error }: { error: { code: string } }) => {
                handler.destroy();
                resolve({ outcome: 'failure', code: error.code });
              },
            });
            handler.open();
          }),
        options,
      );
      assert.deepEqual(ended, { outcome: 'failure', code }, what);
      assert.deepEqual(await sandboxState(other), before, what);
    }
    assert.deepEqual(errors, []);
    await context.close();
  });

  it('reconnects a disconnected enrollment from the banner: it reads data again, and enrollment.reconnected arrives', async () => {
    const { page, token, enrollmentId, checking } = enrolled;
    const disconnected = await api('POST', '/sandbox/enrollment/disconnect', token, { reason: 'credentials_changed' });
    assert.equal(disconnected.status, 200);
    await page.reload();
    await page.locator('#reconnect-banner').waitFor();
    assert.match(await page.locator('#reconnect-banner').innerText(), /connection to Chase stopped working/);
    await page.focus('#reconnect');
    await page.keyboard.press('Enter');
    const frame = await widget(page, /^Reconnect to Chase$/);
    await checkStep(page, frame, 'credentials (reconnect)');
    assert.equal(await frame.locator('#back').isHidden(), true, 'no institution to go back to');
    await page.keyboard.type('username');
    await press(page, frame, 'Tab', 'the password');
    await page.keyboard.type('password');
    await press(page, frame, 'Enter', 'signing in');
    await finish(page, frame);
    await page.locator('#status', { hasText: 'Reconnected.' }).waitFor();
    assert.equal(await page.locator('#reconnect-banner').isHidden(), true);
    assert.ok((await page.locator('#transactions tbody tr').count()) > 0);

    // The enrollment kept its token, which reads data again; the sandbox sent enrollment.reconnected.
    const transactions = await api('GET', `/accounts/${checking}/transactions?count=1`, token);
    assert.equal(transactions.status, 200);
    assert.equal(transactions.headers.get('service-enrollment-status'), 'healthy');
    while (!receiver.events.some((event) => event.type === 'enrollment.reconnected' && event.payload.enrollment_id === enrollmentId)) await sleep(50);
    const types = receiver.events.filter((event) => event.payload.enrollment_id === enrollmentId).map((event) => event.type);
    assert.ok(types.indexOf('enrollment.disconnected') < types.indexOf('enrollment.reconnected'), types.join(', '));
  });

  it("selectAccount 'single': the accounts step offers one choice, and the token reads exactly the account chosen", async () => {
    const { page, context, errors } = await user();
    await page.locator('#connect:not([disabled])').waitFor();
    // A second widget on the page, as an integrator who shares one account would set it up.
    const connected = await openOwnWidget(page, { selectAccount: 'single' });
    const frame = await widget(page, /^Select your institution$/);
    await signIn(page, frame, 'username');
    await frame.getByRole('heading', { name: 'Choose an account' }).waitFor();
    await checkStep(page, frame, 'one account');
    const choices = frame.locator('input[name="account"]');
    assert.ok((await choices.count()) > 1);
    assert.deepEqual([...new Set(await choices.evaluateAll((inputs) => inputs.map((input) => (input as HTMLInputElement).type)))], ['radio']);
    assert.equal(await frame.locator('input[name="account"]:checked').count(), 0, 'nothing is chosen for the user');
    // Continue with none chosen says so; then the first, and the arrow key moves the one choice to the second.
    await frame.getByRole('button', { name: 'Continue' }).click();
    await frame.getByRole('alert').filter({ hasText: 'Choose an account.' }).waitFor();
    await press(page, frame, 'Space', 'the first account');
    await press(page, frame, 'ArrowDown', 'the second account');
    const chosen = await chosenAccounts(frame);
    assert.equal(chosen.length, 1);
    await press(page, frame, 'Tab', 'Continue');
    await press(page, frame, 'Enter', 'Continue');
    await finish(page, frame);
    const result = await connected();
    const accounts = await api('GET', '/accounts', (result as { accessToken: string }).accessToken);
    assert.deepEqual(
      accounts.body.map((account: { id: string }) => account.id),
      chosen,
    );
    assert.deepEqual(errors, []);
    await context.close();
  });

  it('follows the color scheme and reduced motion of the user', async () => {
    const styles = async (colorScheme: 'light' | 'dark', reducedMotion: 'reduce' | 'no-preference') => {
      const { page, context } = await user({ colorScheme, reducedMotion });
      await page.locator('#connect:not([disabled])').waitFor();
      await page.click('#connect');
      const frame = await widget(page, /^Select your institution$/);
      const found = await frame.evaluate(() => {
        const dialog = getComputedStyle(document.getElementById('dialog')!);
        return { background: dialog.backgroundColor, color: dialog.color, animation: dialog.animationName };
      });
      // The page behind shows through the frame: its canvas stays transparent.
      const canvas = await frame.evaluate(() => getComputedStyle(document.documentElement).backgroundColor);
      await context.close();
      return { ...found, canvas };
    };
    const light = await styles('light', 'no-preference');
    const dark = await styles('dark', 'reduce');
    assert.deepEqual(light, { background: 'rgb(255, 255, 255)', color: 'rgb(31, 35, 40)', animation: 'rise', canvas: 'rgba(0, 0, 0, 0)' });
    assert.deepEqual(dark, { background: 'rgb(22, 27, 34)', color: 'rgb(230, 237, 243)', animation: 'none', canvas: 'rgba(0, 0, 0, 0)' });
  });

  it('axe-core finds no serious or critical violation on any step of the widget, in the light and the dark color scheme', () => {
    const steps = [
      'loading',
      'institutions',
      'credentials',
      'credentials with an error',
      'accounts',
      'one account',
      'done',
      'approve',
      'approve a payee',
      'failure',
      'mfa',
      'mfa with an error',
      'credentials (reconnect)',
    ];
    const expected = steps.flatMap((step) => [`${step} (light)`, `${step} (dark)`]);
    assert.deepEqual([...axeFindings.keys()].sort(), [...expected].sort());
    const found = [...axeFindings].flatMap(([step, violations]) => violations.map((violation) => `${step}: ${violation}`));
    console.log(`# axe-core: ${axeFindings.size} checks (${steps.length} steps, light and dark), ${found.length} serious or critical violations`);
    assert.deepEqual(found, []);
  });
});
