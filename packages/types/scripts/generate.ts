// Generates one declaration module per bundled document with openapi-typescript; `versions`: the versions module
// of @aggregation/openapi, copied, with the types of each version by its date added to its declarations; and the
// error codes module (error-codes.ts) from the codes the documents declare.
// Runs from this package's folder on purpose: openapi-typescript would read a redocly.yaml in the working
// directory and ignore its input argument, and there is none here.
//
// The versions are copied rather than imported because @aggregation/openapi is only this package's build input:
// the client depends on these types and re-exports the versions from here, and a client installed from the
// registry must not pull in the description, its bundles and a JSON Schema validator to learn two dates.
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { OpenApiDocument } from '@aggregation/openapi/contract';
import { DOCUMENT_NAMES, VERSIONS } from '@aggregation/openapi/versions';
import { declaredConstants, errorCodesModule } from './error-codes.ts';

const packageDir = join(dirname(fileURLToPath(import.meta.url)), '..');
const distDir = join(packageDir, 'dist');
const require = createRequire(import.meta.url);
const bundleDir = join(dirname(require.resolve('@aggregation/openapi/package.json')), 'dist');
const cli = join(dirname(require.resolve('openapi-typescript/package.json')), 'bin', 'cli.js');

mkdirSync(distDir, { recursive: true });
for (const name of DOCUMENT_NAMES) {
  execFileSync(process.execPath, [cli, join(bundleDir, `${name}.json`), '--output', join('dist', `${name}.d.ts`)], {
    cwd: packageDir,
    stdio: 'inherit',
  });
}

/** `"<date>": import('./<date>.js').paths;`, one member per version. */
const byVersion = (what: string) => VERSIONS.map((version) => `  ${JSON.stringify(version)}: import('./${version}.js').${what};`).join('\n');

copyFileSync(join(bundleDir, 'versions.js'), join(distDir, 'versions.js'));
writeFileSync(
  join(distDir, 'versions.d.ts'),
  `${readFileSync(join(bundleDir, 'versions.d.ts'), 'utf8')}
// Added by @aggregation/types' build (scripts/generate.ts): the generated types of each version, by its date.
export interface PathsByVersion {
${byVersion('paths')}
}
export interface ComponentsByVersion {
${byVersion('components')}
}
export interface OperationsByVersion {
${byVersion('operations')}
}
export interface WebhooksByVersion {
${byVersion('webhooks')}
}
`,
);

const bundles = DOCUMENT_NAMES.map((name) => JSON.parse(readFileSync(join(bundleDir, `${name}.json`), 'utf8')) as OpenApiDocument);
const { js, dts } = errorCodesModule(declaredConstants(bundles));
writeFileSync(join(distDir, 'error-codes.js'), js);
writeFileSync(join(distDir, 'error-codes.d.ts'), dts);
console.log('dist/error-codes.js, dist/error-codes.d.ts');
