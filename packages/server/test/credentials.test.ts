// What an Authorization value names, read once per value: the access token and its hash, as authentication uses them.
import assert from 'node:assert/strict';
import { describe, test } from 'vitest';
import { hashToken } from '../src/domain/ids.ts';
import { credentialIn, tokenIn } from '../src/http/middleware/auth.ts';
import { basic } from './helpers/harness.ts';

describe('credentialIn', () => {
  test('gives the token an Authorization value carries, and the hash its enrollment is found by', () => {
    for (const [value, token] of [
      [basic('test_token_credential1'), 'test_token_credential1'],
      [basic('test_token_credential2', 'ignored'), 'test_token_credential2'],
      ['test_token_credential3', 'test_token_credential3'],
    ] as const) {
      assert.equal(tokenIn(value), token);
      assert.deepEqual(credentialIn(value), { token, tokenHash: hashToken(token) });
    }
  });

  test('keeps what a value names: the same credential, frozen, for each request that repeats it', () => {
    const value = basic('test_token_credential4');
    const first = credentialIn(value);
    assert.ok(first && Object.isFrozen(first));
    assert.equal(credentialIn(value), first);
  });

  test('a value that names no token names none each time it comes', () => {
    for (const value of [undefined, '', 'Bearer x', basic(''), 'Basic !!!', 'token with spaces']) {
      assert.equal(credentialIn(value), undefined);
      assert.equal(credentialIn(value), undefined);
    }
  });

  test('a long value is read each time rather than kept, and reads the same', () => {
    const token = `test_token_${'a'.repeat(300)}`;
    const value = basic(token);
    const first = credentialIn(value);
    assert.deepEqual(first, { token, tokenHash: hashToken(token) });
    const again = credentialIn(value);
    assert.deepEqual(again, first);
    assert.notEqual(again, first);
  });
});
