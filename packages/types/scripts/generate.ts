// Generates one declaration module per bundled document with openapi-typescript, and the error codes module
// (error-codes.ts) from the codes the documents declare.
// Runs from this package's folder on purpose: openapi-typescript would read a redocly.yaml in the working
// directory and ignore its input argument, and there is none here.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { OpenApiDocument } from '@aggregation/openapi/contract';
import { declaredConstants, errorCodesModule } from './error-codes.ts';

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

const bundles = documents.map((name) => JSON.parse(readFileSync(join(bundleDir, `${name}.json`), 'utf8')) as OpenApiDocument);
const { js, dts } = errorCodesModule(declaredConstants(bundles));
writeFileSync(join(packageDir, 'dist', 'error-codes.js'), js);
writeFileSync(join(packageDir, 'dist', 'error-codes.d.ts'), dts);
console.log('dist/error-codes.js, dist/error-codes.d.ts');
