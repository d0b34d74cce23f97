// Request ids and the request log: every response (rendered, replayed by the read cache, or an error) carries its
// own Request-Id, error bodies repeat it, the access log shows it, and `GET /sandbox/logs` streams the token's
// requests as they finish, and no one else's.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { RequestLog, STREAM_QUEUE_LINES } from '../src/http/request-log.ts';
import { type RunningServer, startServer } from '../src/index.ts';
import { basic, type Caller, caller, eventually } from './helpers/harness.ts';

describe('request ids and the request log over HTTP', () => {
  let dir: string;
  let running: RunningServer;
  let http: Caller;
  const logged: string[] = [];

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'server-request-log-'));
    running = await startServer({
      port: 0,
      hostname: '127.0.0.1',
      databasePath: join(dir, 'sandbox.sqlite'),
      webhooks: { autostart: false },
      accessLog: (line) => logged.push(line),
    });
    http = caller((request) => fetch(request), running.url);
  });
  afterAll(async () => {
    await running.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const enroll = async () => {
    const reply = await http('POST', '/sandbox/enrollments', { json: { username: 'username', password: 'password' } });
    return reply.body.access_token as string;
  };

  test('every response has its own Request-Id, replays of the read cache included', async () => {
    const token = await enroll();
    const hits = running.app.readCache!.hits;
    const ids: (string | null)[] = [];
    for (let i = 0; i < 3; i++) {
      const reply = await http('GET', '/accounts', { token });
      assert.equal(reply.status, 200);
      ids.push(reply.headers.get('request-id'));
    }
    assert.ok(running.app.readCache!.hits - hits >= 2, 'the later reads were replayed');
    assert.ok(
      ids.every((id) => /^req_[a-z0-9]+$/.test(id ?? '')),
      `ids: ${ids.join(', ')}`,
    );
    assert.equal(new Set(ids).size, ids.length, 'each replay has a fresh id');
    const replayedLine = logged.find((line) => line.includes(ids[2]!));
    assert.ok(replayedLine?.endsWith('(replayed)'), `the access log shows the replay's id: ${replayedLine}`);
    assert.ok(logged.some((line) => line.startsWith('GET /accounts 200 ') && line.includes(ids[0]!)));
  });

  test('error bodies repeat the Request-Id as error.request_id', async () => {
    const token = await enroll();
    for (const [path, options] of [
      ['/accounts', {}],
      ['/accounts/acc_unknown', { token }],
      ['/no/such/route', { unchecked: true }],
    ] as const) {
      const reply = await http('GET', path, options);
      assert.ok(reply.status >= 400, path);
      assert.match(reply.body.error.request_id, /^req_/, path);
      assert.equal(reply.body.error.request_id, reply.headers.get('request-id'), path);
    }
  });

  /** Opens the token's log stream and collects its lines. */
  const tail = async (token: string) => {
    const controller = new AbortController();
    const response = await fetch(`${running.url}/sandbox/logs`, { headers: { authorization: basic(token) }, signal: controller.signal });
    assert.equal(response.status, 200);
    assert.match(response.headers.get('content-type') ?? '', /^application\/x-ndjson/);
    const lines: any[] = [];
    const reading = (async () => {
      let buffered = '';
      const decoder = new TextDecoder();
      const reader = response.body!.getReader();
      try {
        for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
          buffered += decoder.decode(chunk.value, { stream: true });
          for (let newline = buffered.indexOf('\n'); newline >= 0; newline = buffered.indexOf('\n')) {
            lines.push(JSON.parse(buffered.slice(0, newline)));
            buffered = buffered.slice(newline + 1);
          }
        }
      } catch {
        // Aborted by the test.
      }
    })();
    return {
      lines,
      close: async () => {
        controller.abort();
        await reading;
      },
    };
  };

  test("GET /sandbox/logs streams the token's requests as they finish, and no other token's", async () => {
    const mine = await enroll();
    const other = await enroll();
    const stream = await tail(mine);
    try {
      const first = await http('GET', '/accounts', { token: mine });
      const replayed = await http('GET', '/accounts', { token: mine });
      const failed = await http('GET', '/accounts/acc_unknown', { token: mine });
      await http('GET', '/accounts', { token: other });
      await eventually(() => stream.lines.length >= 3);
      // A moment for a line that should not come.
      await new Promise((resolve) => setTimeout(resolve, 50));
      assert.deepEqual(
        stream.lines.map((line) => [line.method, line.path, line.status, line.request_id, line.replayed]),
        [
          ['GET', '/accounts', 200, first.headers.get('request-id'), false],
          ['GET', '/accounts', 200, replayed.headers.get('request-id'), true],
          ['GET', '/accounts/acc_unknown', 404, failed.headers.get('request-id'), false],
        ],
      );
      for (const line of stream.lines) {
        assert.ok(line.duration_ms >= 0);
        assert.ok(Math.abs(Date.parse(line.time) - Date.now()) < 10_000);
      }
    } finally {
      await stream.close();
    }
    await eventually(() => !running.app.requestLog.listening);
  });

  test('timeout_seconds ends the stream; a live token or none is refused', async () => {
    const token = await enroll();
    const started = Date.now();
    // Unchecked: the shared validator reads JSON bodies, not lines (the streaming test checks the lines).
    const reply = await http('GET', '/sandbox/logs?timeout_seconds=1', { token, unchecked: true });
    assert.equal(reply.status, 200);
    assert.ok(Date.now() - started >= 900);
    assert.equal((await http('GET', '/sandbox/logs')).status, 401);
    assert.equal((await http('GET', '/sandbox/logs?timeout_seconds=0', { token })).status, 422);
  });
});

describe('request log streams', () => {
  const entry = (n: number) => ({
    time: new Date().toISOString(),
    method: 'GET',
    path: `/accounts/${n}`,
    status: 200,
    duration_ms: 1,
    request_id: `req_${n}`,
    replayed: false,
  });

  test('nothing is built without a listener; a slow reader loses lines and is told how many', async () => {
    const log = new RequestLog();
    assert.equal(log.listening, false);
    const reader = log.stream('enr_1').getReader();
    assert.equal(log.listening, true);
    for (let n = 0; n < STREAM_QUEUE_LINES + 5; n++) log.record('enr_1', entry(n));
    log.record('enr_2', entry(-1));
    const decoder = new TextDecoder();
    const read = async () => JSON.parse(decoder.decode((await reader.read()).value));
    assert.equal((await read()).path, '/accounts/0');
    for (let n = 1; n < STREAM_QUEUE_LINES; n++) await read();
    log.record('enr_1', entry(9999));
    assert.deepEqual(await read(), { dropped: 5 });
    assert.equal((await read()).path, '/accounts/9999');
    await reader.cancel();
    assert.equal(log.listening, false);
  });
});
