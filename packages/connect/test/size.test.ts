// connect.js is what every page that offers "Connect your bank" loads: it stays small.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, it } from 'vitest';
import { widgetDir } from '../src/assets.ts';
import { skipUnlessBuilt } from './support.ts';

const LIMIT_BYTES = 15 * 1024;

describe.skipIf(skipUnlessBuilt())('connect.js', () => {
  it(`is at most ${LIMIT_BYTES / 1024} kB gzipped, and depends on nothing`, () => {
    const script = readFileSync(join(widgetDir, 'connect.js'));
    const gzipped = gzipSync(script, { level: 9 }).byteLength;
    console.log(`# connect.js: ${script.byteLength} bytes, ${gzipped} bytes gzipped`);
    assert.ok(gzipped <= LIMIT_BYTES, `${gzipped} bytes gzipped`);
    // One classic script: no import, no require, nothing loaded from elsewhere.
    const text = script.toString('utf8');
    assert.doesNotMatch(text, /\bimport\s*[({'"]|\brequire\(|\bimportScripts\(/);
  });
});
