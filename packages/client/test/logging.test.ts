// The client's log against the sandbox server in-process: a line per call with method, path, status, duration,
// retries and request id, retries on `warn`, failures without a response on `error`, headers on `debug`, the level
// from the options or AGGREGATION_LOG, and never a credential, whatever the level.
import assert from 'node:assert/strict';
import { type App, createApp } from '@aggregation/server';
import { afterAll, afterEach, beforeAll, describe, it, vi } from 'vitest';
import { readEnvironment } from '../src/environment.ts';
import {
  createClient,
  createSandboxClient,
  getResponseInfo,
  InternalServerError,
  LOG_LEVEL_ENV,
  type LogDetails,
  type Logger,
  type LogLevel,
  NotFoundError,
} from '../src/index.ts';
import { apiError, fakeFetch, json } from './helpers/fake-fetch.ts';
import { missingBundle } from './helpers/prism.ts';

const baseUrl = 'http://localhost';
type Line = { level: keyof Logger; message: string; details: LogDetails | undefined };

function collecting(): { logger: Logger; lines: Line[] } {
  const lines: Line[] = [];
  const at = (level: keyof Logger) => (message: string, details?: LogDetails) => void lines.push({ level, message, details });
  return { logger: { error: at('error'), warn: at('warn'), info: at('info'), debug: at('debug') }, lines };
}

describe.skipIf(missingBundle('2020-10-12'))('the log', () => {
  let app: App;
  const fetch = (request: Request) => app.fetch(request);
  const enroll = async (username: string) => {
    const { data } = await createSandboxClient({ baseUrl, fetch }).POST('/sandbox/enrollments', { body: { username, password: 'password' } });
    assert.ok(data);
    return data;
  };
  const clientFor = (token: string, logger: Logger, logLevel?: LogLevel) =>
    createClient({ token, baseUrl, fetch, logger, retry: { sleep: async () => {} }, ...(logLevel ? { logLevel } : {}) });
  const saved = process.env[LOG_LEVEL_ENV];

  beforeAll(() => {
    app = createApp({ databasePath: ':memory:', logError: () => {} });
  });
  afterAll(async () => {
    await app?.close();
  });
  afterEach(() => {
    if (saved === undefined) delete process.env[LOG_LEVEL_ENV];
    else process.env[LOG_LEVEL_ENV] = saved;
  });

  it('says each call and each retry, with its status, duration, retries and request id', async () => {
    const { access_token: token } = await enroll('rate_limited.1');
    const { logger, lines } = collecting();
    const client = clientFor(token, logger, 'info');
    const accounts = await client.accounts.list();
    await assert.rejects(client.accounts.get('acc_missing'), NotFoundError);

    assert.deepEqual(
      lines.map((line) => [line.level, line.details?.method, line.details?.path, line.details?.status, line.details?.retries]),
      [
        ['warn', 'GET', '/accounts', 429, 0],
        ['info', 'GET', '/accounts', 200, 1],
        ['info', 'GET', '/accounts/acc_missing', 404, 0],
      ],
    );
    const [retry, listed, missing] = lines as [Line, Line, Line];
    assert.equal(retry.details?.delayMs, 1000);
    assert.match(retry.message, /^GET \/accounts 429 in \d+ ms \(request id req_\w+\); retrying in 1000 ms \(retry 1\)$/);
    assert.equal(listed.details?.requestId, getResponseInfo(accounts)?.requestId);
    assert.match(listed.message, /^GET \/accounts 200 in \d+ ms after 1 retry \(request id req_\w+\)$/);
    assert.ok(typeof missing.details?.durationMs === 'number' && missing.details.durationMs >= 0);
    assert.equal(listed.details?.requestHeaders, undefined, 'headers only on debug');
  });

  it('a call that gets no response is an error line', async () => {
    const { logger, lines } = collecting();
    const failing = createClient({
      token: 'test_token_unreachable',
      baseUrl,
      logger,
      logLevel: 'error',
      maxRetries: 1,
      retry: { sleep: async () => {} },
      fetch: () => Promise.reject(Object.assign(new TypeError('fetch failed'), { cause: { code: 'ECONNREFUSED' } })),
    });
    await assert.rejects(failing.accounts.list());
    assert.deepEqual(
      lines.map((line) => [line.level, line.details?.retries]),
      [['error', 1]],
    );
    assert.match(lines[0]?.message ?? '', /^GET \/accounts failed \(Request failed, connection refused .*\) in \d+ ms after 1 retry$/);
  });

  it('takes its level from AGGREGATION_LOG when the options give none, and says when that is no level', async () => {
    const { access_token: token } = await enroll('username');
    process.env[LOG_LEVEL_ENV] = 'info';
    const first = collecting();
    await clientFor(token, first.logger).institutions.list();
    assert.deepEqual(
      first.lines.map((line) => line.level),
      ['info'],
    );

    process.env[LOG_LEVEL_ENV] = 'loud';
    const second = collecting();
    await clientFor(token, second.logger).institutions.list();
    assert.deepEqual(
      second.lines.map((line) => [line.level, line.message]),
      [['warn', 'AGGREGATION_LOG is "loud", not one of off, error, warn, info, debug: not logging']],
    );

    delete process.env[LOG_LEVEL_ENV];
    const third = collecting();
    await clientFor(token, third.logger).institutions.list();
    assert.deepEqual(third.lines, [], 'off by default');
    const fourth = collecting();
    process.env[LOG_LEVEL_ENV] = 'debug';
    await clientFor(token, fourth.logger, 'warn').institutions.list();
    assert.deepEqual(fourth.lines, [], 'the option wins over the environment');
  });

  it('never holds a token, at any level, in Basic or raw Authorization, on success, retry, error or payment', async () => {
    const enrollment = await enroll('rate_limited.2');
    const token = enrollment.access_token;
    const { logger, lines } = collecting();
    const client = clientFor(token, logger, 'debug');
    const [account] = await client.accounts.list();
    assert.ok(account?.links.payments);
    await client.payments.create(account, {
      amount: '1.00',
      memo: 'Log',
      payee: { scheme: 'zelle', address: 'ann@example.com', name: 'Ann', type: 'person' },
    });
    await assert.rejects(client.accounts.details('acc_missing'));
    // The raw form of the token as Authorization, which the service accepts too.
    await client.accounts.list({ headers: { Authorization: token } });

    const posted = lines.find((line) => line.details?.method === 'POST' && line.level === 'info');
    assert.equal(posted?.details?.status, 202);
    assert.match(posted?.details?.requestHeaders?.['idempotency-key'] ?? '', /^[0-9a-f-]{36}$/);
    assert.equal(posted?.details?.requestHeaders?.authorization, '[redacted]');
    assert.ok(lines.filter((line) => line.level === 'warn').length >= 2, 'the retries are logged');
    assert.ok(lines.some((line) => line.details?.responseHeaders?.['request-id']));

    const everything = JSON.stringify(lines);
    const secret = token.slice('test_token_'.length);
    for (const form of [token, secret, btoa(`${token}:`), btoa(token), encodeURIComponent(token)]) {
      assert.ok(!everything.includes(form), `a log line holds the token as ${form}`);
    }
  });
});

describe('the log without a server', () => {
  it('goes to the console by default: the line alone, with its details at debug', async () => {
    const spies = (['error', 'warn', 'info', 'debug'] as const).map((level) => vi.spyOn(console, level).mockImplementation(() => {}));
    const answers = [apiError(503, 'service_unavailable'), json([]), apiError(500, 'internal_error')];
    const { fetch } = fakeFetch(() => answers.shift()!);
    const client = createClient({
      token: 'test_token_console',
      baseUrl: 'https://api.test',
      fetch,
      logLevel: 'debug',
      retry: { sleep: async () => {} },
    });
    await client.accounts.list();
    await assert.rejects(client.accounts.list({ maxRetries: 0 }), InternalServerError);
    const [error, warn, info, debug] = spies.map((spy) => spy.mock.calls);
    assert.equal(warn?.length, 1);
    assert.match(String(warn?.[0]?.[0]), /^GET \/accounts 503 in \d+ ms; retrying in \d+ ms \(retry 1\)$/);
    const details = warn?.[0]?.[1] as LogDetails;
    assert.equal(details.status, 503);
    assert.equal(details.requestHeaders?.authorization, '[redacted]');
    assert.match(String(info?.[0]?.[0]), /^GET \/accounts 200 in \d+ ms after 1 retry$/);
    assert.match(String(error?.[0]?.[0]), /^GET \/accounts 500 in \d+ ms$/, 'a 5xx at the end of a call is an error line');
    assert.deepEqual(debug, [], 'nothing is said only at debug: its details ride on the lines above');

    for (const spy of spies) spy.mockClear();
    const quiet = createClient({ token: 'test_token_console', baseUrl: 'https://api.test', fetch: () => json([]), logLevel: 'info' });
    await quiet.accounts.list();
    assert.deepEqual(
      spies[2]?.mock.calls.map((call) => call.length),
      [1],
      'below debug, the line alone',
    );
  });

  it("the caller's own abort is an info line, not an error", async () => {
    const lines: [string, string][] = [];
    const keep = (level: string) => (message: string) => void lines.push([level, message]);
    const client = createClient({
      token: 'test_token_abort',
      baseUrl: 'https://api.test',
      logLevel: 'info',
      logger: { error: keep('error'), warn: keep('warn'), info: keep('info'), debug: keep('debug') },
      fetch: (request) => new Promise((_, reject) => request.signal.addEventListener('abort', () => reject(request.signal.reason))),
    });
    const controller = new AbortController();
    const pending = client.accounts.list({ signal: controller.signal });
    setTimeout(() => controller.abort(new Error('stop')), 10);
    await assert.rejects(pending, /stop/);
    assert.deepEqual(
      lines.map(([level, message]) => [level, message.replace(/\d+ ms/, 'N ms')]),
      [['info', 'GET /accounts failed (stop) in N ms']],
    );
  });
});

describe('the environment, where the runtime has one', () => {
  const runtime = globalThis as { Deno?: unknown };
  afterEach(() => {
    delete runtime.Deno;
  });

  it('reads Deno.env only when access is already granted, so that it never prompts', () => {
    let state = 'granted';
    runtime.Deno = { permissions: { querySync: () => ({ state }) }, env: { get: (name: string) => (name === LOG_LEVEL_ENV ? 'debug' : undefined) } };
    assert.equal(readEnvironment(LOG_LEVEL_ENV), 'debug');
    state = 'prompt';
    assert.equal(readEnvironment(LOG_LEVEL_ENV), undefined);
    runtime.Deno = {
      permissions: {
        querySync: () => {
          throw new Error('not capable');
        },
      },
      env: { get: () => 'debug' },
    };
    assert.equal(readEnvironment(LOG_LEVEL_ENV), undefined);
  });
});
