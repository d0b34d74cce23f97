// Drives each command of `aggregation` in a subprocess against `aggregation serve` (itself a subprocess, on a fresh
// SQLite file and a free port), and checks what it printed and what it did to the server.
import assert from 'node:assert/strict';
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { verifyWebhook } from '@aggregation/client';
import { exitWithParent, stopOnExit } from '@aggregation/test-support';
import { afterAll, beforeAll, describe, test } from 'vitest';

const bin = fileURLToPath(new URL('../bin/aggregation.js', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'aggregation-cli-'));
/** Remembered tokens go to the test's own file, never the user's. */
const env = { ...process.env, AGGREGATION_CONFIG: join(dir, 'sandbox.json'), AGGREGATION_TOKEN: '', NO_COLOR: '' };
// An escape sequence's start: ESC then `[`.
const ANSI = new RegExp(`${String.fromCharCode(27)}\\[`);

interface Running {
  child: ChildProcessWithoutNullStreams;
  stdout: () => string;
  stderr: () => string;
  /**
   * Resolves with the first stdout match of `pattern`, as soon as the process prints it; rejects when the process
   * exits without having printed it. No clock: a slow machine only makes it later.
   */
  waitFor(pattern: RegExp): Promise<RegExpMatchArray>;
  exited: Promise<number | null>;
}

function start(args: string[], extraEnv: Record<string, string> = {}): Running {
  return wrap(spawn(process.execPath, [...exitWithParent, bin, ...args], { env: { ...env, ...extraEnv } }), args);
}

function wrap(child: ChildProcessWithoutNullStreams, args: string[]): Running {
  let stdout = '';
  let stderr = '';
  let closed = false;
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  // Stopped with the test process, however it ends; it ends itself if that was SIGKILL.
  const forget = stopOnExit(() => child.kill('SIGKILL'));
  const exited = new Promise<number | null>((resolve) =>
    child.on('close', (code) => {
      closed = true;
      forget();
      resolve(code);
    }),
  );
  return {
    child,
    stdout: () => stdout,
    stderr: () => stderr,
    exited,
    waitFor(pattern) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const match = stdout.match(pattern);
          if (match) {
            child.stdout.off('data', check);
            resolve(match);
          } else if (closed) {
            reject(new Error(`${args.join(' ')} exited without printing ${pattern}; stdout: ${stdout}\nstderr: ${stderr}`));
          }
        };
        child.stdout.on('data', check);
        void exited.then(check);
        check();
      });
    },
  };
}

/** The client's webhook receiver example, as the README starts it (on a free port). */
function spawnReceiver(secret: string): Running {
  const example = fileURLToPath(new URL('../../client/examples/webhook-hono.ts', import.meta.url));
  const child = spawn(process.execPath, [...exitWithParent, example], { env: { ...env, WEBHOOK_SECRETS: secret, PORT: '0' } });
  return wrap(child, ['webhook-hono.ts']);
}

/** Runs a command to its end. */
async function run(args: string[], extraEnv: Record<string, string> = {}) {
  const running = start(args, extraEnv);
  const code = await running.exited;
  return { code, stdout: running.stdout(), stderr: running.stderr() };
}

/** Runs a command with --json and parses its output. */
async function json(args: string[]) {
  const result = await run([...args, '--json']);
  assert.equal(result.code, 0, `${args.join(' ')}: ${result.stderr}`);
  return JSON.parse(result.stdout);
}

/** Waits until `check` holds, however long the machine takes; the test's own timeout is the only limit. */
async function eventually(check: () => Promise<boolean> | boolean): Promise<void> {
  while (!(await check())) await new Promise((resolve) => setTimeout(resolve, 50));
}

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('aggregation', () => {
  let server: Running;
  let baseUrl: string;
  let global: string[];
  const basic = (token: string) => ({ authorization: `Basic ${Buffer.from(`${token}:`).toString('base64')}` });

  beforeAll(async () => {
    server = start(['serve', '--port', '0', '--database', join(dir, 'sandbox.sqlite')]);
    baseUrl = (await server.waitFor(/Listening on (http:\/\/127\.0\.0\.1:\d+)/))[1]!;
    global = ['--base-url', baseUrl];
  });
  afterAll(async () => {
    server.child.kill('SIGTERM');
    await server.exited;
  });

  test('serve: the sandbox server as npm start runs it, with its access log and a ready token', async () => {
    await server.waitFor(/Sandbox access token: test_token_/);
    assert.equal((await fetch(`${baseUrl}/institutions`)).status, 200);
    await eventually(() => /GET \/institutions 200 .* req_[a-z0-9]+/.test(server.stdout()));
  });

  test('--version and -v print the version of the package, as the built bin runs', async () => {
    const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string };
    for (const flag of ['--version', '-v']) {
      const printed = await run([flag]);
      assert.equal(printed.code, 0, printed.stderr);
      assert.equal(printed.stdout, `${version}\n`, flag);
    }
  });

  test('--help has examples, on the program and on each command', async () => {
    const help = await run(['--help']);
    assert.equal(help.code, 0);
    assert.match(help.stdout, /Examples:[\s\S]*aggregation listen --forward-to/);
    for (const command of ['serve', 'enroll', 'listen', 'trigger', 'clock advance', 'deliveries', 'redeliver', 'logs tail', 'approve', 'reconnect']) {
      const own = await run([...command.split(' '), '--help']);
      assert.match(own.stdout, /Examples:\n {2}\$ aggregation /, command);
      assert.match(own.stdout, /--base-url <url>[\s\S]*--token <token>[\s\S]*--json/, `${command} lists the global options`);
    }
  });

  test('enroll: prints the token and the accounts as a table; --json for scripts; the token works', async () => {
    const printed = await run([...global, 'enroll', 'verify.microdeposit']);
    assert.equal(printed.code, 0, printed.stderr);
    assert.doesNotMatch(printed.stdout, ANSI, 'no colours when not on a terminal');
    const token = printed.stdout.match(/Access token: (test_token_\w+)/)![1]!;
    assert.match(printed.stdout, /^ACCOUNT +NAME +TYPE +SUBTYPE +LAST FOUR +STATUS$/m);
    assert.match(printed.stdout, /^acc_\w+ +Success +depository +checking +\d{4} +open$/m);
    assert.match(printed.stdout, /^acc_\w+ +Failure +/m);
    const accounts = await fetch(`${baseUrl}/accounts`, { headers: basic(token) });
    assert.equal(accounts.status, 200);
    assert.deepEqual(
      ((await accounts.json()) as { name: string }[]).map((a) => a.name),
      ['Success', 'Failure'],
    );

    // Colours where a terminal would get them (FORCE_COLOR stands in for one).
    const coloured = await run([...global, 'enroll'], { FORCE_COLOR: '1' });
    assert.match(coloured.stdout, ANSI);

    const created = await json([...global, 'enroll', '--institution', 'chase']);
    assert.match(created.access_token, /^test_token_/);
    assert.equal(created.enrollment.institution.id, 'chase');
    assert.equal(created.accounts.length, 3);
    assert.equal(statSync(env.AGGREGATION_CONFIG).mode & 0o077, 0, 'remembered tokens are readable by their owner only');

    const refused = await run([...global, 'enroll', 'nobody.at.all', '--json']);
    assert.equal(refused.code, 1);
    assert.equal(JSON.parse(refused.stdout).error.code, 'credentials_invalid');
    assert.match(refused.stderr, /credentials_invalid, request req_\w+\)/);
  });

  test('one server, one origin: enrolled through localhost/, the token serves the commands on 127.0.0.1', async () => {
    const config = { AGGREGATION_CONFIG: join(dir, 'origins.json') };
    const { port } = new URL(baseUrl);
    // What `npm start` prints (localhost), with a trailing slash; then the default's 127.0.0.1.
    const enrolled = await run(['--base-url', `http://localhost:${port}/`, 'enroll', '--json'], config);
    assert.equal(enrolled.code, 0, enrolled.stderr);
    const shown = await run(['--base-url', `http://127.0.0.1:${port}`, 'clock', 'show', '--json'], config);
    assert.equal(shown.code, 0, shown.stderr);
    assert.equal(JSON.parse(shown.stdout).offset_seconds, 0);
  });

  test('approve: the MFA challenge is approved, and the same request with the same key then pays once; refusals say why', async () => {
    const { access_token: token, accounts } = await json([...global, 'enroll', 'mfa.payments']);
    const pay = () =>
      fetch(`${baseUrl}/accounts/${accounts[0].id}/payments`, {
        method: 'POST',
        headers: { ...basic(token), 'content-type': 'application/json', 'idempotency-key': 'cli-approve' },
        body: JSON.stringify({ amount: '4.00', memo: 'CLI', payee: { scheme: 'zelle', address: 'cli@example.com', name: 'Cli', type: 'person' } }),
      });
    const challenged = (await (await pay()).json()) as { connect_token: string };
    const printed = await run([...global, '--token', token, 'approve', challenged.connect_token]);
    assert.equal(printed.code, 0, printed.stderr);
    assert.match(printed.stdout, /Approved the create_payment challenge on acc_\w+ .*\n.*Idempotency-Key cli-approve/);
    const paid = await pay();
    assert.equal(paid.status, 202);
    const again = await run([...global, '--token', token, 'approve', challenged.connect_token, '--json']);
    assert.equal(again.code, 1);
    assert.equal(JSON.parse(again.stdout).error.code, 'connect_token.completed');
    const unknown = await run([...global, '--token', token, 'approve', 'no-such-token']);
    assert.equal(unknown.code, 1);
    assert.match(unknown.stderr, /404 connect_token\.not_found, request req_\w+/);
  });

  test('reconnect: a disconnected enrollment is healthy again, with the same token; a healthy one is refused', async () => {
    const { access_token: token, accounts } = await json([...global, 'enroll', 'disconnected']);
    const balances = () => fetch(`${baseUrl}/accounts/${accounts[0].id}/balances`, { headers: basic(token) });
    assert.equal((await balances()).status, 404, 'the user disconnects at its first data request');
    const printed = await run([...global, 'reconnect']);
    assert.equal(printed.code, 0, printed.stderr);
    assert.match(printed.stdout, /Reconnected enr_\w+ at Chase: healthy/);
    const read = await balances();
    assert.deepEqual([read.status, read.headers.get('service-enrollment-status')], [200, 'healthy']);
    const refused = await run([...global, 'reconnect', '--json']);
    assert.equal(refused.code, 1);
    assert.equal(JSON.parse(refused.stdout).error.code, 'enrollment.not_disconnected');
  });

  test('enroll mfa.device takes the one-time code; without it the refusal says which', async () => {
    const refused = await run([...global, 'enroll', 'mfa.device']);
    assert.equal(refused.code, 1);
    assert.match(refused.stderr, /mfa\.code_required/);
    assert.match((await json([...global, 'enroll', 'mfa.device', '--mfa-code', '1234'])).access_token, /^test_token_/);
  });

  test('clock advance: 3d, 12h and 1d12h move the enrollment clock; a bad duration is refused', async () => {
    const { access_token: token } = await json([...global, 'enroll']);
    const moved = await json([...global, '--token', token, 'clock', 'advance', '3d']);
    assert.equal(moved.offset_seconds, 3 * 86_400);
    assert.equal((await json([...global, '--token', token, 'clock', 'advance', '12h'])).offset_seconds, 3.5 * 86_400);
    const printed = await run([...global, '--token', token, 'clock', 'advance', '1d12h']);
    assert.match(printed.stdout, /Enrollment clock: .* \(5 days ahead of real time\)/);
    const clock = (await (await fetch(`${baseUrl}/sandbox/clock`, { headers: basic(token) })).json()) as { offset_seconds: number };
    assert.equal(clock.offset_seconds, 5 * 86_400);
    const bad = await run([...global, '--token', token, 'clock', 'advance', '3x']);
    assert.notEqual(bad.code, 0);
    assert.match(bad.stderr, /expected a duration such as 3d/);
  });

  test('listen forwards each event with the body and signature the server signed, and restores the URL on exit', async () => {
    const { access_token: token, enrollment } = await json([...global, 'enroll']);
    const headers = { ...basic(token), 'content-type': 'application/json' };
    // A URL set before: listen puts it back.
    const previousUrl = 'http://127.0.0.1:9/previous';
    await fetch(`${baseUrl}/sandbox/webhook`, { method: 'PUT', headers, body: JSON.stringify({ url: previousUrl }) });

    const received: { raw: string; signature: string }[] = [];
    let answer = 200;
    const target: Server = createServer(async (request, response) => {
      const chunks: Buffer[] = [];
      for await (const chunk of request) chunks.push(chunk as Buffer);
      received.push({ raw: Buffer.concat(chunks).toString('utf8'), signature: String(request.headers['service-signature']) });
      response.writeHead(answer).end(answer === 200 ? 'ok' : 'receiver says no');
    });
    await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
    const targetUrl = `http://127.0.0.1:${(target.address() as AddressInfo).port}/webhooks`;

    const listen = start([...global, '--token', token, 'listen', '--forward-to', targetUrl, '--events', 'webhook.test,transactions.processed']);
    try {
      const secret = (await listen.waitFor(/signing secret is (whsec_\S+)/))[1]!;
      const settings = (await (await fetch(`${baseUrl}/sandbox/webhook`, { headers })).json()) as { url: string };
      assert.match(settings.url, /^http:\/\/127\.0\.0\.1:\d+\/$/, 'the webhook URL points at the listener');

      const fired = await json([...global, '--token', token, 'trigger', 'webhook.test']);
      assert.equal(fired.type, 'webhook.test');
      const line = await listen.waitFor(new RegExp(`^\\d\\d:\\d\\d:\\d\\d webhook\\.test +${fired.id} -> \\[200\\] POST ${targetUrl} \\d+ ms$`, 'm'));
      assert.ok(line);
      assert.equal(received.length, 1);
      // The exact body and Service-Signature the server made: they verify with the printed secret.
      const event = await verifyWebhook(received[0]!.raw, received[0]!.signature, secret);
      assert.deepEqual(event, fired);

      // Not among --events: acknowledged, not forwarded.
      const skipped = await json([...global, '--token', token, 'trigger', 'enrollment.disconnected']);
      // Through --enrollment: the remembered token of that enrollment.
      const processed = await json([...global, 'trigger', 'transactions.processed', '--enrollment', enrollment.id]);
      await listen.waitFor(new RegExp(`transactions\\.processed +${processed.id} -> \\[200\\]`));
      assert.equal(received.length, 2);
      assert.doesNotMatch(listen.stdout(), new RegExp(skipped.id));

      // A failing target: its status goes back to the server, whose delivery log shows why.
      answer = 500;
      const failing = await json([...global, '--token', token, 'trigger', 'webhook.test']);
      await listen.waitFor(new RegExp(`${failing.id} -> \\[500\\]`));
      let failed: any;
      await eventually(async () => {
        failed = (await json([...global, '--token', token, 'deliveries', '--failed'])).find((d: any) => d.event_id === failing.id);
        return failed !== undefined;
      });
      assert.equal(failed.last_status, 500);
      assert.equal(failed.last_error, 'HTTP 500: receiver says no');
      const all = await json([...global, '--token', token, 'deliveries']);
      assert.ok(all.some((d: any) => d.event_id === fired.id && d.status === 'delivered'));
      assert.ok(!(await json([...global, '--token', token, 'deliveries', '--failed'])).some((d: any) => d.status === 'delivered'));
      const table = await run([...global, '--token', token, 'deliveries', '--failed']);
      // Attempts: one or more, as a retry may already have come and gone on a busy machine.
      assert.match(table.stdout, /^DELIVERY +EVENT +TYPE +STATUS +ATTEMPTS +NEXT ATTEMPT +LAST ANSWER$/m);
      assert.match(table.stdout, new RegExp(`^${failed.id} +${failing.id} +webhook\\.test +pending +\\d+ +\\S+ +HTTP 500: receiver says no$`, 'm'));

      // Fixed: redeliver sends the same event again, signed afresh.
      answer = 200;
      const before = received.length;
      const redelivered = await json([...global, '--token', token, 'redeliver', failed.id]);
      assert.equal(redelivered.event_id, failing.id);
      assert.notEqual(redelivered.id, failed.id);
      await eventually(() => received.length > before);
      assert.equal(received.at(-1)!.raw, received.find((r) => r.raw.includes(failing.id))!.raw);
      await verifyWebhook(received.at(-1)!.raw, received.at(-1)!.signature, secret);
      const printed = await run([...global, '--token', token, 'redeliver', 'dlv_missing']);
      assert.equal(printed.code, 1);
      assert.match(printed.stderr, /No webhook delivery dlv_missing\. \(404 not_found, request req_\w+\)/);
    } finally {
      listen.child.kill('SIGTERM');
      assert.equal(await listen.exited, 0, listen.stderr());
      target.closeAllConnections();
      await new Promise((resolve) => target.close(resolve));
    }
    const restored = (await (await fetch(`${baseUrl}/sandbox/webhook`, { headers })).json()) as { url: string };
    assert.equal(restored.url, previousUrl, 'the previous webhook URL is back');
    assert.doesNotMatch(listen.stdout(), ANSI);
  });

  test("logs tail prints the token's requests as they happen, with their request ids", async () => {
    const { access_token: token, accounts } = await json([...global, 'enroll']);
    const tail = start([...global, '--token', token, 'logs', 'tail']);
    const tailJson = start([...global, '--token', token, 'logs', 'tail', '--json']);
    try {
      await eventually(() => /Tailing the request log/.test(tail.stderr()) && /Tailing the request log/.test(tailJson.stderr()));
      const ok = await fetch(`${baseUrl}/accounts/${accounts[0].id}`, { headers: basic(token) });
      const missing = await fetch(`${baseUrl}/accounts/acc_missing`, { headers: basic(token) });
      const okId = ok.headers.get('request-id')!;
      const missingId = missing.headers.get('request-id')!;
      await tail.waitFor(new RegExp(`^\\d\\d:\\d\\d:\\d\\d 200 GET +/accounts/${accounts[0].id} [\\d.]+ms ${okId}$`, 'm'));
      await tail.waitFor(new RegExp(`^\\d\\d:\\d\\d:\\d\\d 404 GET +/accounts/acc_missing [\\d.]+ms ${missingId}$`, 'm'));
      await tailJson.waitFor(new RegExp(missingId));
      const lines = tailJson
        .stdout()
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line));
      assert.deepEqual(
        lines.map((line) => [line.method, line.path, line.status, line.request_id]),
        [
          ['GET', `/accounts/${accounts[0].id}`, 200, okId],
          ['GET', '/accounts/acc_missing', 404, missingId],
        ],
      );
    } finally {
      tail.child.kill('SIGINT');
      tailJson.child.kill('SIGINT');
      assert.equal(await tail.exited, 0, tail.stderr());
      assert.equal(await tailJson.exited, 0, tailJson.stderr());
    }
  });

  test('refusals name the fields: an unknown event type, unknown --events', async () => {
    const { access_token: token } = await json([...global, 'enroll']);
    const trigger = await run([...global, '--token', token, 'trigger', 'nope.event']);
    assert.equal(trigger.code, 1);
    assert.match(trigger.stderr, /\(422 unprocessable_entity, request req_\w+\)\n {2}type: must be one of: /);
    const listen = await run([...global, '--token', token, 'listen', '--forward-to', 'http://127.0.0.1:1/', '--events', 'webhook.test,nope']);
    assert.equal(listen.code, 1);
    assert.match(listen.stderr, /Unknown event types in --events: nope; known: /);
  });

  test('a remembered token the server no longer knows: the refusal says to enroll again; a given one does not', async () => {
    // What `aggregation enroll` left before the server's database was reset: a token it never made.
    const config = join(dir, 'reset.json');
    writeFileSync(config, JSON.stringify({ [baseUrl]: { last: 'enr_gone', tokens: { enr_gone: 'test_token_gone' } } }));
    const remembered = await run([...global, 'deliveries'], { AGGREGATION_CONFIG: config });
    assert.equal(remembered.code, 1);
    assert.match(remembered.stderr, /The access token is not valid\. \(403 forbidden, request req_\w+\)\n/);
    assert.match(remembered.stderr, /the server no longer accepts it .*: run `aggregation enroll` again, or pass --token\.\n$/);
    const given = await run([...global, '--token', 'test_token_gone', 'deliveries'], { AGGREGATION_CONFIG: config });
    assert.equal(given.code, 1);
    assert.match(given.stderr, /\(403 forbidden, request req_\w+\)\n$/);
  });

  test('no token, or no server: one line saying what to do', async () => {
    // A port nothing listens on.
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const nowhere = `http://127.0.0.1:${(closed.address() as AddressInfo).port}`;
    await new Promise((resolve) => closed.close(resolve));
    const noToken = await run(['--base-url', nowhere, 'deliveries']);
    assert.equal(noToken.code, 1);
    assert.match(noToken.stderr, /No sandbox token: pass --token, set AGGREGATION_TOKEN, or run `aggregation enroll` first\./);
    const noServer = await run(['--base-url', nowhere, '--token', 'test_token_x', 'deliveries']);
    assert.equal(noServer.code, 1);
    assert.equal(
      noServer.stderr,
      `Error: Cannot reach the server at ${nowhere} (connection refused). Start one with \`aggregation serve\`, or pass --base-url.\n`,
    );
  });
});

describe("the README's path to a verified webhook", () => {
  // A server of its own: the other tests' webhook settings and retries stay out of it.
  let server: Running;
  let global: string[];
  const config = { AGGREGATION_CONFIG: join(dir, 'newcomer.json') };
  beforeAll(async () => {
    server = start(['serve', '--port', '0', '--database', join(dir, 'newcomer.sqlite')]);
    global = ['--base-url', (await server.waitFor(/Listening on (http:\/\/127\.0\.0\.1:\d+)/))[1]!];
  });
  afterAll(async () => {
    server.child.kill('SIGTERM');
    await server.exited;
  });

  test("enroll, listen, the client's example receiver with the printed secret, trigger", async () => {
    assert.equal((await run([...global, 'enroll'], config)).code, 0);
    // The receiver first, on a free port (the README's 4242 may be taken on a shared machine).
    const listenFirst = start([...global, 'listen', '--forward-to', 'http://127.0.0.1:9/unused'], config);
    const secret = (await listenFirst.waitFor(/signing secret is (whsec_[\w-]+)/))[1]!;
    listenFirst.child.kill('SIGINT');
    await listenFirst.exited;
    const receiver = spawnReceiver(secret);
    const receiverUrl = (await receiver.waitFor(/Listening on (\S+)/))[1]!;
    const listen = start([...global, 'listen', '--forward-to', receiverUrl], config);
    try {
      assert.equal((await listen.waitFor(/signing secret is (whsec_[\w-]+)/))[1], secret, 'the same secret each time');
      const triggered = await run([...global, 'trigger', 'transactions.processed'], config);
      assert.equal(triggered.code, 0, triggered.stderr);
      // The receiver verified the signature listen passed on, and listen saw its 204.
      await receiver.waitFor(/^\d+ new$/m).catch((error: Error) => {
        throw new Error(`${error.message}\nlisten printed: ${listen.stdout()}${listen.stderr()}`);
      });
      await listen.waitFor(/transactions\.processed +evt_\w+ -> \[204\]/);
    } finally {
      receiver.child.kill('SIGTERM');
      listen.child.kill('SIGINT');
      await Promise.all([receiver.exited, listen.exited]);
    }
  });
});
