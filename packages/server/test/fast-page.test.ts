// The transactions page answered before the app (src/http/fast-page.ts), with the read cache off. The oracle is the
// app: the same request handed to it (a GET with `Content-Length: 0`, which the app reads as it reads one without,
// is never answered early) must bring the same head, line for line, and the same bytes; and every request the app
// refuses is still refused by it, in the contract's shape.
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { test } from 'vitest';
import { basic, type Caller, eventually, servedSuite } from './helpers/harness.ts';
import { appOptions, describeUnless, storeKinds } from './helpers/stores.ts';

/** Requests a page's enrollment may make before its bucket runs dry (no refill to speak of). */
const BURST = 12;
const payee = { scheme: 'zelle', address: 'jane.doe@example.com', name: 'Jane Doe', type: 'person' };

interface RawReply {
  /** The status line and header lines as sent. */
  head: string[];
  body: Buffer;
}

for (const kind of await storeKinds()) {
  describeUnless(kind.skip, `transactions page answered before the app (${kind.name})`, () => {
    const served = servedSuite(async () => ({
      // On a file, as the server runs: a store in memory keeps no revisions, so nothing read is kept.
      ...appOptions(await kind.location(true)),
      readCache: false,
      rateLimit: { perSecond: 0.001, burst: BURST },
    }));
    const http: Caller = (...args) => served.http(...args);
    const rendered: Caller = (...args) => served.rendered(...args);
    const { logged } = served;

    const answered = () => served.running.app.servePage!.answered;

    const enroll = async (username = 'username') => {
      const reply = await http('POST', '/sandbox/enrollments', { json: { username, password: 'password' } });
      assert.equal(reply.status, 201, reply.text);
      const accounts = reply.body.accounts as { id: string; subtype: string }[];
      return { token: reply.body.access_token as string, checking: accounts.find((account) => account.subtype === 'checking')!.id };
    };

    /** One request on its own connection, read until the server closes it (`Connection: close`). */
    const raw = (path: string, headers: Record<string, string>): Promise<RawReply> => {
      const { host, port } = new URL(served.running.url);
      const lines = [
        `GET ${path} HTTP/1.1`,
        `Host: ${host}`,
        'Connection: close',
        ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`),
      ];
      return new Promise((resolve, reject) => {
        const chunks: Buffer[] = [];
        const socket = connect(Number(port), '127.0.0.1', () => socket.write(`${lines.join('\r\n')}\r\n\r\n`));
        socket.on('data', (chunk) => chunks.push(chunk));
        socket.on('error', reject);
        socket.on('end', () => {
          const all = Buffer.concat(chunks);
          const split = all.indexOf('\r\n\r\n');
          resolve({ head: all.subarray(0, split).toString('latin1').split('\r\n'), body: all.subarray(split + 4) });
        });
      });
    };

    /** The head without what differs between any two responses: the request's id and the date. */
    const comparable = (head: string[]) => head.map((line) => line.replace(/^(request-id|Date): .*/i, '$1: -'));

    test('answers each version with the head and bytes the app sends, and leaves a GET with a body length to the app', async () => {
      const { token, checking } = await enroll();
      const path = `/accounts/${checking}/transactions?count=100`;
      for (const version of [undefined, '2020-10-12', '2019-07-01']) {
        const headers: Record<string, string> = { Authorization: basic(token), ...(version ? { 'Service-Version': version } : {}) };
        const before = answered();
        const early = await raw(path, headers);
        assert.equal(answered(), before + 1, `${version}: answered before the app`);
        const byApp = await raw(path, { ...headers, 'Content-Length': '0' });
        assert.equal(answered(), before + 1, `${version}: a GET with a body length goes to the app`);
        assert.equal(early.head[0], 'HTTP/1.1 200 OK', early.body.toString());
        assert.deepEqual(comparable(early.head), comparable(byApp.head), `${version}: head`);
        assert.ok(early.body.equals(byApp.body), `${version}: body`);
        // The raw token in Authorization (the older form) reads the same page.
        const older = await raw(path, { ...headers, Authorization: token });
        assert.equal(answered(), before + 2);
        assert.ok(older.body.equals(byApp.body), `${version}: body with the raw token`);
        const inProcess = await rendered('GET', path, { token, ...(version ? { version } : {}) });
        assert.equal(early.body.toString(), inProcess.text, `${version}: the page app.fetch renders`);
      }
    });

    test('pages their client has not read yet keep their bytes while the server writes other pages', async () => {
      // Pages of 500 rows (about 250 kB), pipelined on one connection that is not read: more than loopback takes in
      // (about 4 MB here), so the last ones wait in the server, each in its own memory, while it answers others.
      // Two enrollments, A and B, pages alternating and B's last; then one more page of A, on another connection, in
      // memory that a page still waiting may not share. The suite's rate limit allows each no more than twelve.
      const slow = [await enroll('history.600'), await enroll('history.600')];
      const pathOf = (account: string) => `/accounts/${account}/transactions?count=500`;
      const expected = new Map<string, string>();
      for (const { token, checking } of slow) expected.set(token, (await rendered('GET', pathOf(checking), { token })).text);
      const order = Array.from({ length: 10 }, () => slow).flat();
      const { host, port } = new URL(served.running.url);
      const socket = connect(Number(port), '127.0.0.1');
      socket.pause();
      const chunks: Buffer[] = [];
      const ended = new Promise<void>((resolve, reject) => {
        socket.on('end', resolve);
        socket.on('error', reject);
      });
      const before = answered();
      const requests = order.map(
        ({ token, checking }, index) =>
          `GET ${pathOf(checking)} HTTP/1.1\r\nHost: ${host}\r\nAuthorization: ${basic(token)}\r\n${index === order.length - 1 ? 'Connection: close\r\n' : ''}\r\n`,
      );
      socket.write(requests.join(''));
      await eventually(() => answered() >= before + order.length);
      const a = slow[0]!;
      const another = await http('GET', pathOf(a.checking), { token: a.token });
      assert.equal(another.text, expected.get(a.token));
      assert.equal(answered(), before + order.length + 1, 'every page answered before the app');
      socket.on('data', (chunk: Buffer) => chunks.push(chunk));
      socket.resume();
      await ended;
      const all = Buffer.concat(chunks);
      let at = 0;
      for (const [index, { token }] of order.entries()) {
        const headEnd = all.indexOf('\r\n\r\n', at);
        const length = Number(/\r\ncontent-length: *(\d+)/i.exec(all.subarray(at, headEnd).toString('latin1'))?.[1]);
        const body = all.subarray(headEnd + 4, headEnd + 4 + length).toString();
        assert.ok(body === expected.get(token), `page ${index + 1} of ${order.length} reads as the app renders it`);
        at = headEnd + 4 + length;
      }
      assert.equal(at, all.length);
    });

    test('a page after a write shows the write; after the clock moves the enrollment has work due and the app answers', async () => {
      const { token, checking } = await enroll();
      const path = `/accounts/${checking}/transactions?count=100`;
      const first = await http('GET', path, { token });
      const paid = await http('POST', `/accounts/${checking}/payments`, { token, json: { amount: '25', memo: 'Rent share', payee } });
      assert.equal(paid.status, 202, paid.text);
      const before = answered();
      const after = await http('GET', path, { token });
      assert.equal(answered(), before + 1);
      assert.notEqual(after.text, first.text, 'the payment shows on the page');
      assert.equal(after.text, (await rendered('GET', path, { token })).text);

      assert.equal((await http('POST', '/sandbox/clock/advance', { token, json: { days: 3 } })).status, 200);
      const later = await http('GET', path, { token });
      assert.equal(later.status, 200);
      assert.equal(later.text, (await rendered('GET', path, { token })).text);
    });

    test("refusals stay the app's: bad or unknown query values, unknown and other enrollments' accounts, missing or invalid tokens", async () => {
      const mine = await enroll();
      const theirs = await enroll();
      const before = answered();
      const cases: [path: string, token: string | undefined, status: number][] = [
        [`/accounts/${mine.checking}/transactions?count=abc`, mine.token, 422],
        [`/accounts/${mine.checking}/transactions?count=0`, mine.token, 422],
        [`/accounts/${mine.checking}/transactions?count=100&start_date=yesterday`, mine.token, 422],
        [`/accounts/acc_nothere0000000000000/transactions?count=100`, mine.token, 404],
        [`/accounts/${theirs.checking}/transactions?count=100`, mine.token, 404],
        [`/accounts/${mine.checking}/transactions?count=100`, undefined, 401],
        [`/accounts/${mine.checking}/transactions?count=100`, 'test_token_doesnotexist', 403],
      ];
      for (const [path, token, status] of cases) {
        const reply = await http('GET', path, token ? { token } : {});
        assert.equal(reply.status, status, `${path}: ${reply.text}`);
        assert.equal(reply.body.error.request_id, reply.headers.get('request-id'), path);
      }
      // An unknown query name is left to the app too, which reads the page.
      const unknown = await http('GET', `/accounts/${mine.checking}/transactions?count=5&colour=red`, { token: mine.token });
      assert.equal(unknown.status, 200);
      assert.equal(answered(), before);
    });

    test("the account's row is kept from page to page, and read again once the account is closed or removed", async () => {
      const kept = served.running.app.runtime.keptAccounts;
      for (const [change, status] of [
        [(token: string, account: string) => http('POST', `/sandbox/accounts/${account}/close`, { token, json: {} }), 410],
        [(token: string, account: string) => http('DELETE', `/accounts/${account}`, { token }), 404],
      ] as const) {
        const { token, checking } = await enroll();
        const path = `/accounts/${checking}/transactions?count=5`;
        // A row is kept when nothing was committed while it was read; the enrollment's webhooks commit for a while.
        const hits = kept.hits;
        for (let page = 0; page < 20 && kept.hits === hits; page++) assert.equal((await http('GET', path, { token })).status, 200);
        assert.ok(kept.hits > hits, 'a later page uses the row an earlier one read');
        const changed = await change(token, checking);
        assert.ok(changed.status < 300, changed.text);
        const before = answered();
        const refused = await http('GET', path, { token });
        assert.equal(refused.status, status, refused.text);
        assert.equal(answered(), before, 'the app answers');
      }
    });

    test('the rate limit counts each page once, and the page past the burst is refused by the app', async () => {
      const { token, checking } = await enroll();
      const path = `/accounts/${checking}/transactions?count=10`;
      const before = answered();
      for (let index = 0; index < BURST; index++) assert.equal((await http('GET', path, { token })).status, 200, `request ${index + 1}`);
      assert.equal(answered(), before + BURST);
      const refused = await http('GET', path, { token });
      assert.equal(refused.status, 429, refused.text);
      assert.equal(refused.body.error.code, 'rate_limited');
      assert.equal(answered(), before + BURST);
    });

    test('the access log and the request log record a page answered early under its Request-Id', async () => {
      const { token, checking } = await enroll();
      const controller = new AbortController();
      const stream = await fetch(`${served.running.url}/sandbox/logs`, { headers: { authorization: basic(token) }, signal: controller.signal });
      assert.equal(stream.status, 200);
      const path = `/accounts/${checking}/transactions?count=3`;
      const before = answered();
      const page = await http('GET', path, { token, version: '2019-07-01' });
      assert.equal(answered(), before + 1);
      const requestId = page.headers.get('request-id')!;
      assert.match(requestId, /^req_[a-z0-9]+$/);
      const reader = stream.body!.getReader();
      const entry = JSON.parse(new TextDecoder().decode((await reader.read()).value).split('\n')[0]!);
      controller.abort();
      assert.deepEqual(
        { method: entry.method, path: entry.path, status: entry.status, request_id: entry.request_id, replayed: entry.replayed },
        { method: 'GET', path: path.split('?')[0], status: 200, request_id: requestId, replayed: false },
      );
      assert.ok(
        logged.some((line) => line.startsWith(`GET ${path.split('?')[0]} 200 `) && line.endsWith(` 2019-07-01 ${requestId}`)),
        logged.slice(-3).join('\n'),
      );
    });
  });
}
