// The packed npm packages as an integrator meets them: installed with `npm install` from the tarballs in
// dist/release/ into a temporary project with no link to this repository (its third-party dependencies come from
// the registry), then used from plain JavaScript on the machine's Node.js and on Node.js 24, type-checked with the
// installed declarations, and bundled for a browser that runs against the sandbox server from the same install.
import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { once } from 'node:events';
import { existsSync, readdirSync } from 'node:fs';
import { copyFile, cp, readFile, rm } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { documentNames } from '@aggregation/openapi/contract';
import { findToolchain, missingTool, pythonLayerDir, venvPython } from '@aggregation/polyglot';
import { chromiumArgs, findChromium, machineNode, signInThroughWidget, skipWhenMissing, widgetFrame } from '@aggregation/test-support';
import { chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, inject, it } from 'vitest';
import { HANG_GUARD_MS } from '../../../vitest.shared.ts';
import { goReleaseDir, pythonReleaseDir } from '../src/packages.ts';
import { consumerTemplate } from './support/installed.ts';
import { cleanEnv, copyInstalledProject, run } from './support/project.ts';

const pythonExamplesDir = join(pythonLayerDir, 'examples');

// A webhook signed the way the description says, computed here with node:crypto, independently of the client.
const secret = 'whsec_consumer_5d2c1a';
const timestamp = 1714564800;
const webhookBody = '{"id":"evt_consumer","type":"webhook.test","timestamp":"2024-05-01T12:00:00Z","payload":{}}';
const webhookHeader = `t=${timestamp},v1=${createHmac('sha256', secret).update(`${timestamp}.${webhookBody}`).digest('hex')}`;

const nodes = [
  { label: `Node.js ${process.versions.node} (the project's)`, path: process.execPath },
  ...(() => {
    const path = machineNode();
    return path ? [{ label: "the machine's Node.js", path }] : [];
  })(),
];
const skipMachineNode = skipWhenMissing("the consumer test on the machine's Node.js", nodes.length < 2 && 'no node on PATH besides node_modules/.bin');
const toolchain = findToolchain();
const skipPython = skipWhenMissing('the consumer test of the Python package', missingTool('python', toolchain));
const skipGo = skipWhenMissing('the consumer test of the Go module', missingTool('go', toolchain));
const chromiumPath = findChromium();
const skipBrowser = skipWhenMissing(
  'the consumer test in a browser',
  !chromiumPath && 'Chromium is not installed (Debian package `chromium`, or set CHROMIUM_PATH)',
);

describe('the packed npm packages, installed outside the repository', () => {
  let project: string;
  let sandbox: ChildProcess;
  let baseUrl: string;
  let token: string;
  let expectedAccountTypes: string[];

  beforeAll(async () => {
    // The client and the server (with the CLI) installed from their tarballs into a copy of consumer/.
    project = await copyInstalledProject(inject('installedProject'), 'aggregation-consumer-');

    // The sandbox server from the same install, on Node.js 24, as `npx @aggregation/server` would start it.
    sandbox = spawn(process.execPath, [join(project, 'node_modules', '.bin', 'aggregation-sandbox')], {
      cwd: project,
      env: cleanEnv({ PORT: '0', HOST: '127.0.0.1', DATABASE_PATH: join(project, 'sandbox.sqlite'), ACCESS_LOG: 'off' }),
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    for await (const line of createInterface({ input: sandbox.stdout! })) {
      baseUrl ??= /^Listening on (\S+)/.exec(line)?.[1] as string;
      token ??= /^Sandbox access token: (\S+)/.exec(line)?.[1] as string;
      if (baseUrl && token) break;
    }
    assert.ok(baseUrl && token, 'the sandbox server printed its address and a token');
    // What the accounts are, read without the client.
    const response = await fetch(`${baseUrl}/accounts`, { headers: { authorization: `Basic ${btoa(`${token}:`)}` } });
    expectedAccountTypes = ((await response.json()) as { type: string }[]).map((account) => account.type);
    assert.ok(expectedAccountTypes.length > 0);
  });

  afterAll(async () => {
    sandbox?.kill();
    if (sandbox && sandbox.exitCode === null) await once(sandbox, 'exit');
    if (project) await rm(project, { recursive: true, force: true, maxRetries: 3 });
  });

  const input = () => ({ baseUrl, token, body: webhookBody, header: webhookHeader, secret, now: timestamp * 1000 });
  const expected = () => ({ accounts: expectedAccountTypes, event: 'webhook.test', forged: 'signature_mismatch' });

  for (const node of nodes) {
    describe.skipIf(node.path === process.execPath ? false : skipMachineNode)(`on ${node.label}`, () => {
      for (const script of ['esm.mjs', 'require.cjs']) {
        it(`${script}: lists the sandbox user's accounts and verifies a webhook`, async () => {
          const { stdout } = await run(node.path, [script], { cwd: project, env: cleanEnv({ CONSUMER_INPUT: JSON.stringify(input()) }) });
          assert.deepEqual(JSON.parse(stdout), expected());
        });
      }
    });
  }

  it('errors.mjs: a 404 throws NotFoundError; a first 429 throws RateLimitError with maxRetries: 0, and the default retries get through', async () => {
    const enroll = async (username: string) => {
      const response = await fetch(`${baseUrl}/sandbox/enrollments`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username, password: 'password' }),
      });
      return ((await response.json()) as { access_token: string }).access_token;
    };
    const tokens = { healthy: token, limitedOnce: await enroll('rate_limited.1'), limitedRetried: await enroll('rate_limited.1') };
    for (const node of nodes) {
      const { stdout } = await run(node.path, ['errors.mjs'], { cwd: project, env: cleanEnv({ CONSUMER_INPUT: JSON.stringify({ baseUrl, tokens }) }) });
      const failure = { apiError: true, notFound: false, rateLimit: false };
      assert.deepEqual(
        JSON.parse(stdout),
        {
          notFound: { ...failure, name: 'NotFoundError', status: 404, notFound: true },
          noRetry: { ...failure, name: 'RateLimitError', status: 429, rateLimit: true },
          retried: { resolved: expectedAccountTypes.length },
        },
        node.label,
      );
      // The next run meets users whose 429 is spent: fresh ones.
      tokens.limitedOnce = await enroll('rate_limited.1');
      tokens.limitedRetried = await enroll('rate_limited.1');
    }
  });

  it.skipIf(skipMachineNode)("the sandbox server on the machine's Node.js older than 24 says what it needs", async (t) => {
    const path = nodes[1]!.path;
    const { stdout: version } = await run(path, ['--version'], { env: cleanEnv() });
    if (Number(version.trim().slice(1).split('.')[0]) >= 24) return t.skip(`the machine's Node.js is ${version.trim()}`);
    const failed = await run(path, [join(project, 'node_modules', '.bin', 'aggregation-sandbox')], { cwd: project, env: cleanEnv() }).then(
      () => undefined,
      (error: { code: number; stderr: string }) => error,
    );
    assert.equal(failed?.code, 1);
    assert.match(failed.stderr, /@aggregation\/server needs Node\.js 24 or newer/);
  });

  it.skipIf(skipPython)('Python: the wheel in a fresh virtualenv runs the quick start and verify_webhook', async () => {
    const wheel = readdirSync(pythonReleaseDir).find((file) => file.endsWith('.whl'));
    assert.ok(wheel, 'no wheel in dist/release/python: npm run release:pack');
    const venv = join(project, 'venv');
    // Without a pip of its own (ensurepip costs seconds of CPU): the pip of the project's tools installs into it.
    await run(toolchain.python!, ['-m', 'venv', '--without-pip', venv], { env: cleanEnv() });
    const python = join(venv, 'bin', 'python');
    await run(venvPython, ['-m', 'pip', '--python', python, 'install', '--quiet', '--disable-pip-version-check', join(pythonReleaseDir, wheel)], {
      env: cleanEnv(),
      maxBuffer: 16 * 1024 * 1024,
    });
    await copyFile(join(pythonExamplesDir, 'quickstart.py'), join(project, 'quickstart.py'));
    const { stdout } = await run(python, ['quickstart.py'], {
      cwd: project,
      env: cleanEnv({ AGGREGATION_TOKEN: token, AGGREGATION_BASE_URL: baseUrl }),
    });
    const lines = stdout.trim().split('\n');
    assert.deepEqual(
      lines.slice(0, -1).map((line) => line.split(' ')[1]),
      expectedAccountTypes,
    );
    assert.equal(lines.at(-1), '404 not_found');
    const verify = [
      'import json, sys',
      'from aggregation_client import WebhookVerificationError, verify_webhook',
      'i = json.loads(sys.argv[1])',
      'event = verify_webhook(i["body"].encode(), i["header"], [i["secret"]], now=i["now"] / 1000)',
      'try:',
      '    verify_webhook(i["body"].replace("{}", \'{"forged":true}\'), i["header"], i["secret"], now=i["now"] / 1000)',
      '    forged = "accepted"',
      'except WebhookVerificationError as error:',
      '    forged = error.reason',
      'print(json.dumps({"event": event["type"], "forged": forged}))',
    ].join('\n');
    const verified = await run(python, ['-c', verify, JSON.stringify(input())], { cwd: project, env: cleanEnv() });
    assert.deepEqual(JSON.parse(verified.stdout), { event: 'webhook.test', forged: 'signature_mismatch' });
  });

  it.skipIf(skipGo)('Go: a program built against the module folder (through a replace directive) lists accounts and verifies a webhook', async () => {
    assert.ok(existsSync(join(goReleaseDir, 'go.mod')), 'no Go module in dist/release/go: npm run release:pack');
    const program = join(project, 'go-program');
    await cp(join(consumerTemplate, 'go'), program, { recursive: true });
    await cp(goReleaseDir, join(project, 'aggregation-go'), { recursive: true });
    // The steps of the Go README, in its order: the module, the code (copied above), then the require and replace
    // that `go mod tidy` keeps because the code imports the package.
    const go = (args: string[]) => run(toolchain.go!, args, { cwd: program, env: cleanEnv() });
    await go(['mod', 'init', 'consumer']);
    await go(['mod', 'edit', '-require=aggregation.example/client@v0.0.0', '-replace=aggregation.example/client=../aggregation-go']);
    await go(['mod', 'tidy']);
    await run(toolchain.go!, ['build', '-o', 'consumer', '.'], { cwd: program, env: cleanEnv() });
    const { stdout } = await run(join(program, 'consumer'), [], { cwd: program, env: cleanEnv({ CONSUMER_INPUT: JSON.stringify(input()) }) });
    assert.deepEqual(JSON.parse(stdout), expected());
  });

  it('@aggregation/openapi ships each document in OpenAPI 3.0.3, as JSON and YAML', async () => {
    const installed = createRequire(join(project, 'package.json'));
    for (const document of documentNames) {
      const variant = JSON.parse(await readFile(installed.resolve(`@aggregation/openapi/dist/${document}.openapi-3.0.json`), 'utf8'));
      assert.equal(variant.openapi, '3.0.3', document);
      assert.ok(existsSync(installed.resolve(`@aggregation/openapi/dist/${document}.openapi-3.0.yaml`)));
    }
  });

  it('type-checks a TypeScript file against the installed declarations', async () => {
    await run(process.execPath, [join(project, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', project], { cwd: project, env: cleanEnv() });
  });

  /**
   * `entry` of the project bundled for the browser by esbuild, run as the module of a page that a server of its own
   * origin serves (`more` answers the page's other requests), in headless Chromium: `use` drives the tab once the page
   * defined `global`. The page must log no error. Returns the bundle.
   */
  async function inChromium(
    entry: string,
    global: string,
    use: (tab: Page, origin: string) => Promise<void>,
    more: (req: IncomingMessage, res: ServerResponse) => unknown = (_req, res) => res.writeHead(404).end(),
  ): Promise<string> {
    const outfile = entry.replace(/\.mjs$/, '.bundle.js');
    await run(join(project, 'node_modules', '.bin', 'esbuild'), [entry, '--bundle', '--format=esm', '--platform=browser', `--outfile=${outfile}`], {
      cwd: project,
      env: cleanEnv(),
    });
    const bundle = await readFile(join(project, outfile), 'utf8');
    const page: Server = createServer((req, res) => {
      if (req.url === '/')
        return res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><script type="module" src="/bundle.js"></script>');
      if (req.url === '/bundle.js') return res.writeHead(200, { 'content-type': 'text/javascript' }).end(bundle);
      return more(req, res);
    });
    page.listen(0, '127.0.0.1');
    await once(page, 'listening');
    const origin = `http://127.0.0.1:${(page.address() as AddressInfo).port}`;
    const browser = await chromium.launch({ executablePath: chromiumPath!, args: chromiumArgs });
    try {
      const tab = await browser.newPage();
      tab.setDefaultTimeout(HANG_GUARD_MS / 2);
      const errors: string[] = [];
      tab.on('pageerror', (error) => errors.push(error.message));
      await tab.goto(origin);
      await tab.waitForFunction((name) => name in globalThis, global);
      await use(tab, origin);
      assert.deepEqual(errors, []);
    } finally {
      await browser.close();
      page.close();
    }
    return bundle;
  }

  it.skipIf(skipBrowser)('bundles the client for a browser with esbuild and runs it in headless Chromium against the sandbox server', async () => {
    let result: unknown;
    // One origin for the page and the API: the page's requests under /api go to the sandbox server as they are.
    const proxy = async (req: IncomingMessage, res: ServerResponse) => {
      if (!req.url?.startsWith('/api/')) return res.writeHead(404).end();
      const headers = Object.fromEntries(
        ['authorization', 'service-version', 'accept'].flatMap((name) => (req.headers[name] ? [[name, String(req.headers[name])]] : [])),
      );
      const upstream = await fetch(`${baseUrl}${req.url.slice('/api'.length)}`, { method: req.method ?? 'GET', headers });
      const passed = [...upstream.headers].filter(([name]) => !['content-length', 'content-encoding', 'transfer-encoding'].includes(name));
      res.writeHead(upstream.status, Object.fromEntries(passed)).end(Buffer.from(await upstream.arrayBuffer()));
    };
    const bundle = await inChromium(
      'browser.mjs',
      'consumerRun',
      async (tab, origin) => {
        result = await tab.evaluate((given) => (globalThis as unknown as { consumerRun: (input: unknown) => Promise<unknown> }).consumerRun(given), {
          ...input(),
          baseUrl: `${origin}/api`,
        });
      },
      proxy,
    );
    assert.doesNotMatch(bundle, /["'](?:undici|node:[a-z_/]+)["']/, 'the browser bundle holds no Node.js-only code');
    assert.deepEqual(result, expected());
  });

  it.skipIf(skipBrowser)(
    '@aggregation/connect: loadConnect loads the widget from the sandbox into a page of another origin, and the token onSuccess gives lists the accounts',
    async () => {
      let accessToken = '';
      await inChromium('connect.mjs', 'consumerConnect', async (tab) => {
        const enrolled = tab.evaluate(
          (given) => (globalThis as unknown as { consumerConnect: (input: unknown) => Promise<{ accessToken: string }> }).consumerConnect(given),
          { baseUrl },
        );
        // A user of the widget: picks the bank, signs in as the sandbox's test user, continues.
        const frame = await widgetFrame(tab);
        await signInThroughWidget(frame, { search: 'chase', institution: 'Chase', username: 'username' });
        await frame.getByRole('heading', { name: 'Connected' }).waitFor();
        await frame.getByRole('button', { name: 'Continue' }).click();
        ({ accessToken } = await enrolled);
      });
      const response = await fetch(`${baseUrl}/accounts`, { headers: { authorization: `Basic ${btoa(`${accessToken}:`)}` } });
      assert.equal(response.status, 200);
      assert.deepEqual(
        ((await response.json()) as { type: string }[]).map((account) => account.type),
        expectedAccountTypes,
      );
    },
  );
});
