import assert from 'node:assert/strict';
import { test, vi } from 'vitest';
import { skipWhenMissing } from '../src/index.ts';

test('nothing missing: no skip, in CI or not', () => {
  assert.equal(skipWhenMissing('the browser tests', false, {}), false);
  assert.equal(skipWhenMissing('the browser tests', undefined, { CI: 'true' }), false);
});

test("something missing: the reason to skip on a developer's machine, a failure under CI=true", () => {
  const printed = vi.spyOn(console, 'log').mockImplementation(() => undefined);
  assert.equal(skipWhenMissing('the browser tests', 'Chromium not found', {}), 'Chromium not found');
  assert.deepEqual(printed.mock.calls[0]!, ['# skipping the browser tests: Chromium not found']);
  assert.equal(skipWhenMissing('the browser tests', 'Chromium not found', { CI: 'false' }), 'Chromium not found');
  assert.throws(() => skipWhenMissing('the browser tests', 'Chromium not found', { CI: 'true' }), {
    message: 'the browser tests: Chromium not found (required when CI=true)',
  });
});
