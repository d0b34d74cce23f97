// The client in every runtime it supports, from one scenario (test/runtimes/scenario.ts) bundled by esbuild and run
// against the sandbox server of this file: Node.js 20.19, 22.12 and 24, Bun and Deno (the Node entry, which they
// resolve the package to), workerd and Chromium (the runtime-neutral entry). Each must give the same outcome: typed
// errors per status, a 429 thrown with `maxRetries: 0` and retried through by default, a payment retried with its
// Idempotency-Key, timeouts, the log without a token, webhook verification.
import assert from 'node:assert/strict';
import { execFile, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { type AddressInfo, createServer as createTcpServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { type App, createApp } from '@aggregation/server';
import { chromiumArgs, findChromium, skipWhenMissing, stopsWithThisProcess } from '@aggregation/test-support';
import { getRequestListener } from '@hono/node-server';
import { chromium } from 'playwright-core';
import { Agent } from 'undici';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { signWebhook } from '../src/index.ts';
import { missingBundle } from './helpers/prism.ts';
import { bundleScenario, nodeRuntime, packageBinary, workerdConfig } from './helpers/runtimes.ts';
import type { ScenarioInput, ScenarioResult } from './runtimes/scenario.ts';

const run = promisify(execFile);
const noServer = missingBundle('2020-10-12');
const notInstalled = (name: string) => `${name} is not installed: npm ci installs it (a devDependency of @aggregation/client)`;
const skipBun = skipWhenMissing('the client on Bun', noServer || (!packageBinary('bun') && notInstalled('bun')));
const skipDeno = skipWhenMissing('the client on Deno', noServer || (!packageBinary('deno') && notInstalled('deno')));
const skipWorkerd = skipWhenMissing('the client on workerd', noServer || (!packageBinary('workerd') && notInstalled('workerd')));
const chromiumPath = findChromium();
const skipChromium = skipWhenMissing(
  'the client in Chromium',
  noServer || (!chromiumPath && 'Chromium is not installed (Debian package `chromium`, or set CHROMIUM_PATH)'),
);

/** What every runtime must give; where runtimes differ (an environment to read the log level from), it is said. */
function expected(hasEnvironment: boolean): ScenarioResult {
  return {
    accounts: ['depository', 'depository', 'credit'],
    notFound: { name: 'NotFoundError', status: 404, code: 'not_found', isApiError: true, isNotFound: true },
    rateLimitedOnce: { name: 'RateLimitError', status: 429, code: 'rate_limited', isRateLimit: true, retryAfter: 1 },
    retriedThrough: true,
    payment: { kind: 'payment', status: 202, keyed: true, made: 1 },
    gatewayTimeout: { name: 'GatewayTimeoutError', status: 504, code: 'gateway_timeout', isGatewayTimeout: true },
    timedOut: { name: 'ConnectionTimeoutError', reason: 'timeout', isTimeout: true, isConnection: true },
    refused: { name: 'ConnectionError', isConnection: true },
    logLines: 2,
    tokenLogged: false,
    environmentLogLines: hasEnvironment ? 1 : 0,
    event: 'webhook.test',
    forged: 'signature_mismatch',
    enrollmentSignature: { valid: true, forged: false },
  };
}

// The runtimes run at once: each runs the scenario on sandbox users of its own, and most of a run is waiting (an
// install of Node.js on first use, a retry's Retry-After, a timeout).
describe.skipIf(noServer)('the client in each runtime', { concurrent: true }, () => {
  let app: App;
  let server: Server;
  let origin: string;
  let closedUrl: string;
  let browserBundle: string;
  const held = new Set<import('node:http').ServerResponse>();

  /** Fresh sandbox users for one run of the scenario: their failures happen once per token. */
  async function input(baseUrl = origin): Promise<ScenarioInput> {
    const enroll = async (username: string) => {
      const response = await app.fetch(
        new Request(`${origin}/sandbox/enrollments`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ username, password: 'password' }),
        }),
      );
      return (await response.json()) as { access_token: string; accounts: { id: string; subtype: string }[] };
    };
    const [healthy, rateLimited, payer, slow] = await Promise.all(
      ['username', 'rate_limited.2', 'rate_limited.1', 'timeout.first_transactions'].map(enroll),
    );
    const checking = (enrollment: typeof payer) => enrollment!.accounts.find((account) => account.subtype === 'checking')!.id;
    const body = '{"id":"evt_runtime","type":"webhook.test","timestamp":"2024-05-01T12:00:00Z","payload":{}}';
    const header = await signWebhook(body, 'whsec_runtime', { timestamp: 1714564800 });
    return {
      baseUrl,
      holdUrl: `${baseUrl}/hold`,
      closedUrl,
      tokens: {
        healthy: healthy!.access_token,
        rateLimited: rateLimited!.access_token,
        rateLimitedPayment: payer!.access_token,
        timeout: slow!.access_token,
      },
      accounts: { payment: checking(payer), timeout: checking(slow) },
      webhook: { body, header, secret: 'whsec_runtime', now: 1714564800_000 },
      enrollment: await widgetEnrollment(),
    };
  }

  /** An enrollment through the enrollment widget's steps, as its onSuccess hands it, with the application's key. */
  async function widgetEnrollment(): Promise<ScenarioInput['enrollment']> {
    const nonce = 'runtime-nonce';
    const post = async (path: string, body: unknown) =>
      (await (
        await app.fetch(
          new Request(`${origin}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
        )
      ).json()) as any;
    const session = await post('/sandbox/connect/sessions', { application_id: 'app_default', nonce });
    const done = await post(`/sandbox/connect/sessions/${session.id}/credentials`, {
      application_id: 'app_default',
      institution_id: 'chase',
      username: 'username',
      password: 'password',
    });
    const { access_token: accessToken, user, enrollment, signatures } = done.result;
    const application = (await (
      await app.fetch(new Request(`${origin}/sandbox/application`, { headers: { authorization: `Basic ${btoa(`${accessToken}:`)}` } }))
    ).json()) as { signing_key: { public_key: string } };
    return { result: { accessToken, user, enrollment, signatures }, nonce, publicKey: application.signing_key.public_key };
  }

  beforeAll(async () => {
    app = createApp({ databasePath: ':memory:', logError: () => {} });
    const sandbox = getRequestListener((request) => app.fetch(request));
    browserBundle = await bundleScenario('entry-browser.ts', 'browser');
    server = createServer((request, response) => {
      // Never answered: the client's timeout must give up on it.
      if (request.url?.startsWith('/hold/')) return void held.add(response);
      if (request.url === '/runtime/page') {
        return response.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><script type="module" src="/runtime/bundle.js"></script>');
      }
      if (request.url === '/runtime/bundle.js') return response.writeHead(200, { 'content-type': 'text/javascript' }).end(browserBundle);
      return sandbox(request, response);
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const closed = createTcpServer().listen(0, '127.0.0.1');
    await once(closed, 'listening');
    closedUrl = `http://127.0.0.1:${(closed.address() as AddressInfo).port}`;
    closed.close();
  });

  afterAll(async () => {
    server?.closeAllConnections();
    server?.close();
    await app?.close();
  });

  describe('from the command line (the Node entry)', () => {
    let cliBundle: string;
    let dir: string;
    beforeAll(async () => {
      dir = mkdtempSync(join(tmpdir(), 'aggregation-runtimes-'));
      cliBundle = join(dir, 'scenario.mjs');
      writeFileSync(cliBundle, await bundleScenario('entry-cli.ts', 'node'));
    });
    afterAll(() => rmSync(dir, { recursive: true, force: true }));

    const runs: { name: string; skip: string | false; command: () => Promise<[string, string[]]> }[] = [
      { name: 'Node.js 20.19', skip: false, command: async () => [await nodeRuntime('20.19.0'), [cliBundle]] },
      { name: 'Node.js 22.12', skip: false, command: async () => [await nodeRuntime('22.12.0'), [cliBundle]] },
      { name: `Node.js ${process.versions.node}`, skip: false, command: async () => [process.execPath, [cliBundle]] },
      { name: 'Bun', skip: skipBun, command: async () => [packageBinary('bun')!, ['run', cliBundle]] },
      {
        name: 'Deno',
        skip: skipDeno,
        command: async () => [
          packageBinary('deno')!,
          ['run', '--quiet', '--no-prompt', '--allow-net=127.0.0.1', '--allow-env', '--allow-read', cliBundle],
        ],
      },
    ];
    for (const runtime of runs) {
      it.skipIf(runtime.skip)(runtime.name, async () => {
        const [command, args] = await runtime.command();
        const given = await input();
        const scenario = run(command, [...args, JSON.stringify(given)], {
          env: { PATH: process.env.PATH, HOME: process.env.HOME, AGGREGATION_LOG: 'info' },
        });
        stopsWithThisProcess(scenario.child);
        const { stdout } = await scenario;
        const lines = stdout.trim().split('\n');
        assert.deepEqual(JSON.parse(lines.pop()!), expected(true));
        // The clients given no logger log to the console, at the level AGGREGATION_LOG says.
        assert.ok(
          lines.some((line) => /^GET \/accounts 200 in \d+ ms after 1 retry \(request id req_\w+\)/.test(line)),
          stdout,
        );
        for (const token of Object.values(given.tokens)) assert.ok(!stdout.includes(token), 'a token on the console');
      });
    }
  });

  it.skipIf(skipWorkerd)('workerd', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'aggregation-workerd-'));
    const socket = join(dir, 'http.sock');
    writeFileSync(join(dir, 'worker.js'), await bundleScenario('entry-worker.ts', 'browser'));
    writeFileSync(join(dir, 'config.capnp'), workerdConfig(socket));
    const workerd = spawn(packageBinary('workerd')!, ['serve', join(dir, 'config.capnp')], { stdio: ['ignore', 'inherit', 'inherit'] });
    const dispatcher = new Agent({ connect: { socketPath: socket } });
    try {
      // Ready once it answers on its socket.
      const ask = (body: string) => fetch('http://worker/', { method: 'POST', body, dispatcher } as RequestInit);
      for (;;) {
        const answer = await ask('{}').catch(() => undefined);
        if (answer) break;
        if (workerd.exitCode !== null) assert.fail(`workerd exited with ${workerd.exitCode}`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      const response = await ask(JSON.stringify(await input()));
      const text = await response.text();
      assert.equal(response.status, 200, text);
      assert.deepEqual(JSON.parse(text), expected(false));
    } finally {
      workerd.kill();
      if (workerd.exitCode === null) await once(workerd, 'exit');
      await dispatcher.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it.skipIf(skipChromium)('Chromium', async () => {
    const browser = await chromium.launch({ executablePath: chromiumPath!, args: chromiumArgs });
    try {
      const tab = await browser.newPage();
      const errors: string[] = [];
      tab.on('pageerror', (error) => errors.push(error.message));
      await tab.goto(`${origin}/runtime/page`);
      await tab.waitForFunction(() => 'runScenario' in globalThis);
      const given = await input();
      const result = await tab.evaluate(
        (scenarioInput) => (globalThis as unknown as { runScenario: (i: unknown) => Promise<unknown> }).runScenario(scenarioInput),
        given,
      );
      assert.deepEqual(errors, []);
      assert.deepEqual(result, expected(false));
    } finally {
      await browser.close();
    }
  });
});
