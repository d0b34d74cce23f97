// The Python package `aggregation-client` (import `aggregation_client`): the generated client (clients/python) with
// the hand-written layer of python/ laid over it (its __init__.py replaces the generator's), assembled into
// clients/python-package, then built into a wheel and an sdist and checked by twine. Its version is the TypeScript
// client's, its default API version and base URL the bundle's `info.version` and first server.
import { cpSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { enrollmentSignatureVectors } from '@aggregation/server/signature-vectors';
import { idempotentPosts } from './idempotency.ts';
import { bundlePath, clientsDir, packageDir, pythonClientDir, repoRoot } from './paths.ts';
import { venvEnv, venvPython } from './python.ts';
import { run } from './run.ts';

/** The hand-written part: pyproject.toml, README.md, the layer's modules, their tests and the README's examples. */
export const pythonLayerDir = join(packageDir, 'python');
export const pythonPackageDir = join(clientsDir, 'python-package');
/** The vectors every language's webhook verification is tested on. */
export const webhookVectorsPath = join(repoRoot, 'openapi', 'test', 'fixtures', 'webhook-signatures.json');

/**
 * Writes the enrollment signature vectors every language's verifier is tested on, as the server's signing code makes
 * them now (`@aggregation/server/signature-vectors`), to `file`; returns it.
 */
export function writeEnrollmentVectors(file: string): string {
  mkdirSync(join(file, '..'), { recursive: true });
  writeFileSync(file, `${JSON.stringify(enrollmentSignatureVectors(), null, 2)}\n`);
  return file;
}

const require = createRequire(import.meta.url);

function releaseModule(): string {
  const { version } = JSON.parse(readFileSync(require.resolve('@aggregation/client/package.json'), 'utf8')) as { version: string };
  const bundle = JSON.parse(readFileSync(bundlePath, 'utf8')) as { info: { version: string }; servers?: { url: string }[] };
  const baseUrl = bundle.servers?.[0]?.url ?? 'http://localhost:3000';
  return [
    '"""Written when the package is assembled: the package version (the TypeScript client\'s), and the API version,',
    'base URL and POSTs that take an Idempotency-Key of the description it was generated from."""',
    '',
    `__version__ = ${JSON.stringify(version)}`,
    `CURRENT_VERSION = ${JSON.stringify(bundle.info.version)}`,
    `DEFAULT_BASE_URL = ${JSON.stringify(baseUrl)}`,
    `IDEMPOTENT_POSTS = (${idempotentPosts()
      .map((path) => `${JSON.stringify(path)}, `)
      .join('')})`,
    '',
  ].join('\n');
}

/** Assembles the package's source tree into `dir` from the generated client (run generatePythonClient first). */
export function assemblePythonPackage(dir = pythonPackageDir): string {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const target = join(dir, 'aggregation_client');
  cpSync(join(pythonClientDir, 'aggregation_client'), target, { recursive: true });
  cpSync(join(pythonLayerDir, 'aggregation_client'), target, { recursive: true });
  writeFileSync(join(target, '_release.py'), releaseModule());
  for (const file of ['pyproject.toml', 'README.md']) cpSync(join(pythonLayerDir, file), join(dir, file));
  cpSync(join(repoRoot, 'LICENSE'), join(dir, 'LICENSE'));
  return dir;
}

/** The wheel and the sdist of the package in `outDir`, checked by `twine check --strict`; assembled in `sourceDir`. */
export async function buildPythonPackage(outDir: string, sourceDir = pythonPackageDir): Promise<string[]> {
  const source = assemblePythonPackage(sourceDir);
  rmSync(outDir, { recursive: true, force: true });
  // Without isolation: setuptools comes pinned from requirements.txt instead of the index at build time.
  await run(venvPython, ['-m', 'build', '--no-isolation', '--outdir', outDir, source], { env: venvEnv() });
  const artifacts = readdirSync(outDir).map((file) => join(outDir, file));
  await run(venvPython, ['-m', 'twine', 'check', '--strict', ...artifacts], { env: venvEnv() });
  return artifacts;
}
