// What `npm test` gives Go in GOFLAGS (scripts/test.ts adds -trimpath to the caller's flags).
import assert from 'node:assert/strict';
import { test } from 'vitest';
import { withGoFlag } from '../src/go-flags.ts';

test('adds the flag to unset or empty GOFLAGS', () => {
  assert.equal(withGoFlag(undefined, '-trimpath'), '-trimpath');
  assert.equal(withGoFlag('', '-trimpath'), '-trimpath');
});

test("keeps the caller's flags, in order, before the added one", () => {
  assert.equal(withGoFlag('-mod=mod  -buildvcs=false', '-trimpath'), '-mod=mod -buildvcs=false -trimpath');
});

test('does not add a flag the list already has', () => {
  assert.equal(withGoFlag('-trimpath', '-trimpath'), '-trimpath');
  assert.equal(withGoFlag('-mod=mod -trimpath', '-trimpath'), '-mod=mod -trimpath');
});

test('a flag that only starts like it is another flag', () => {
  assert.equal(withGoFlag('-trimpathx', '-trimpath'), '-trimpathx -trimpath');
});
