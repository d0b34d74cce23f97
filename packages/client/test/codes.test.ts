import assert from 'node:assert/strict';
import { describe, it } from 'vitest';
import { ApiError, codeReason, codeStartsWith, isRateLimited, parseEnrollmentStatus } from '../src/index.ts';

describe('dot-separated codes', () => {
  it('match by whole leading tokens', () => {
    assert.equal(codeStartsWith('account.closed', 'account.closed'), true);
    assert.equal(codeStartsWith('account.closed.user_request', 'account.closed'), true);
    assert.equal(codeStartsWith('account.closed.user_request', 'account'), true);
    assert.equal(codeStartsWith('account.closedx', 'account.closed'), false);
    assert.equal(codeStartsWith('account', 'account.closed'), false);
    assert.equal(codeStartsWith('enrollment.disconnected', 'account.closed'), false);
    assert.equal(codeStartsWith(undefined, 'account.closed'), false);
    assert.equal(codeStartsWith('', ''), false);
  });

  it('read the reason after a prefix', () => {
    assert.equal(codeReason('enrollment.disconnected.password_changed', 'enrollment.disconnected'), 'password_changed');
    assert.equal(codeReason('account.closed.a.b', 'account.closed'), 'a.b');
    assert.equal(codeReason('account.closed', 'account.closed'), undefined);
    assert.equal(codeReason('not_found', 'account.closed'), undefined);
  });
});

describe('enrollment status header', () => {
  it('first token is the status, the rest the reason', () => {
    assert.deepEqual(parseEnrollmentStatus('healthy'), { status: 'healthy', reason: undefined, raw: 'healthy' });
    assert.deepEqual(parseEnrollmentStatus('disconnected'), { status: 'disconnected', reason: undefined, raw: 'disconnected' });
    assert.deepEqual(parseEnrollmentStatus(' disconnected.item_locked.by_bank '), {
      status: 'disconnected',
      reason: 'item_locked.by_bank',
      raw: 'disconnected.item_locked.by_bank',
    });
    assert.equal(parseEnrollmentStatus(null), undefined);
    assert.equal(parseEnrollmentStatus(''), undefined);
  });
});

describe('ApiError', () => {
  it('reads Retry-After and the rate-limit code', () => {
    const error = new ApiError({
      status: 429,
      code: 'rate_limited',
      message: 'Too many requests',
      headers: new Headers({ 'Retry-After': '7' }),
    });
    assert.equal(error.retryAfter, 7);
    assert.ok(isRateLimited(error));
    assert.equal(error.name, 'ApiError');
    assert.ok(error instanceof Error);
  });

  it('ignores params that are not field → messages', () => {
    const response = new Response(null, { status: 422 });
    const error = ApiError.fromResponse(response, { error: { code: 'unprocessable_entity', message: 'x', params: { a: 'no' } } });
    assert.equal(error.params, undefined);
  });
});
