// Generates one declaration module per bundled document with openapi-typescript.
// Runs from this package's folder on purpose: openapi-typescript would read a redocly.yaml in the working
// directory and ignore its input argument, and there is none here.
import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const documents = ['2020-10-12', '2019-07-01', 'sandbox'];

const packageDir = join(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
const bundleDir = join(dirname(require.resolve('@aggregation/openapi/package.json')), 'dist');
const cli = join(dirname(require.resolve('openapi-typescript/package.json')), 'bin', 'cli.js');

mkdirSync(join(packageDir, 'dist'), { recursive: true });
for (const name of documents) {
  execFileSync(process.execPath, [cli, join(bundleDir, `${name}.json`), '--output', join('dist', `${name}.d.ts`)], {
    cwd: packageDir,
    stdio: 'inherit',
  });
}
