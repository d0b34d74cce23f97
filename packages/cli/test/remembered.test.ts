// One server, one origin: the tokens `aggregation enroll` remembers are found again however the same server is
// written (localhost, 127.0.0.1 or [::1] on one port, with or without a trailing slash or a path).
import assert from 'node:assert/strict';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeEach, describe, test } from 'vitest';
import { rememberEnrollment, rememberedToken, serverKey } from '../src/remembered.ts';

const dir = mkdtempSync(join(tmpdir(), 'aggregation-remembered-'));
const config = join(dir, 'sandbox.json');
process.env.AGGREGATION_CONFIG = config;
beforeEach(() => rmSync(config, { force: true }));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('serverKey', () => {
  test('the loopback names of one port are one server; a trailing slash, a path and the case make no difference', () => {
    const same = ['http://localhost:3000', 'http://127.0.0.1:3000', 'http://[::1]:3000', 'http://localhost:3000/', 'http://LOCALHOST:3000/v1/'];
    assert.deepEqual(new Set(same.map(serverKey)), new Set(['http://localhost:3000']));
  });

  test('another port, scheme or host is another server; default ports are written out', () => {
    assert.notEqual(serverKey('http://localhost:3000'), serverKey('http://localhost:3001'));
    assert.notEqual(serverKey('http://localhost:3000'), serverKey('https://localhost:3000'));
    assert.notEqual(serverKey('http://127.0.0.1:3000'), serverKey('http://10.0.0.1:3000'));
    assert.equal(serverKey('https://sandbox.example.com/'), serverKey('https://sandbox.example.com:443'));
    assert.equal(serverKey('http://sandbox.example.com'), 'http://sandbox.example.com:80');
  });
});

describe('remembered tokens', () => {
  test('a token enrolled through localhost is the one of 127.0.0.1 and [::1] on the same port', () => {
    rememberEnrollment('http://localhost:3000', 'enr_1', 'test_token_1');
    assert.equal(rememberedToken('http://127.0.0.1:3000'), 'test_token_1');
    assert.equal(rememberedToken('http://[::1]:3000/'), 'test_token_1');
    assert.equal(rememberedToken('http://127.0.0.1:3000', 'enr_1'), 'test_token_1');
    assert.equal(rememberedToken('http://127.0.0.1:3001'), undefined);
  });

  test('the last enrollment of a server wins, whichever name it was made through', () => {
    rememberEnrollment('http://127.0.0.1:3000/', 'enr_1', 'test_token_1');
    rememberEnrollment('http://localhost:3000', 'enr_2', 'test_token_2');
    assert.equal(rememberedToken('http://127.0.0.1:3000'), 'test_token_2');
    assert.equal(rememberedToken('http://127.0.0.1:3000', 'enr_1'), 'test_token_1');
  });

  test('a file written with the URL as given is read by origin, and rewritten by origin', () => {
    writeFileSync(config, JSON.stringify({ 'http://127.0.0.1:3000': { last: 'enr_old', tokens: { enr_old: 'test_token_old' } } }));
    chmodSync(config, 0o600);
    assert.equal(rememberedToken('http://localhost:3000'), 'test_token_old');
    rememberEnrollment('http://localhost:3000', 'enr_new', 'test_token_new');
    assert.equal(rememberedToken('http://[::1]:3000', 'enr_old'), 'test_token_old');
    assert.equal(rememberedToken('http://[::1]:3000'), 'test_token_new');
  });

  test("the file's keys never reach Object.prototype", () => {
    writeFileSync(
      config,
      '{"__proto__": {"last": "x", "tokens": {"x": "test_token_x"}}, "http://localhost:3000": {"last": "__proto__", "tokens": {}}}',
    );
    assert.equal(rememberedToken('http://localhost:3000'), undefined);
    assert.equal(({} as Record<string, unknown>).last, undefined);
  });
});
