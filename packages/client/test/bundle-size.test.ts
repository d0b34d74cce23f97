// The budget of what the client adds to a browser application: an application that lists accounts
// (test/bundle-size/list-accounts.ts), bundled by esbuild for the browser and minified, then gzipped. The README states
// the budget and the size; a change that grows the bundle past the budget fails here, with what takes the room.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import { it } from 'vitest';

/** Bytes, min+gzip. */
const BUNDLE_BUDGET = 10 * 1024;

it(`a browser application that lists accounts bundles to at most ${BUNDLE_BUDGET} bytes min+gzip`, async () => {
  const packageDir = join(import.meta.dirname, '..');
  const result = await build({
    entryPoints: [join(import.meta.dirname, 'bundle-size', 'list-accounts.ts')],
    absWorkingDir: packageDir,
    bundle: true,
    minify: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    // The package's own sources, which its build compiles to dist/ as they are.
    conditions: ['@aggregation/source'],
    metafile: true,
    write: false,
    logLevel: 'silent',
  });
  const bundle = result.outputFiles[0]!.contents;
  const size = gzipSync(bundle).length;
  const [output] = Object.values(result.metafile.outputs);
  const largest = Object.entries(output!.inputs)
    .sort(([, a], [, b]) => b.bytesInOutput - a.bytesInOutput)
    .slice(0, 8)
    .map(([file, { bytesInOutput }]) => `${file.replace(/^.*node_modules\//, '')} ${bytesInOutput}`);
  console.log(`list-accounts bundle: ${bundle.length} bytes minified, ${size} bytes min+gzip (budget ${BUNDLE_BUDGET})`);
  assert.ok(
    size <= BUNDLE_BUDGET,
    `${size} bytes min+gzip, over the budget of ${BUNDLE_BUDGET}; the largest inputs (minified bytes):\n${largest.join('\n')}`,
  );
  assert.doesNotMatch(new TextDecoder().decode(bundle), /["'](?:undici|node:[a-z_/]+)["']/, 'no Node.js module in a browser bundle');
});
