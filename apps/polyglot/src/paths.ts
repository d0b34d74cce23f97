import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { userCacheDir } from '@aggregation/contract-tests/cached-venv';
import { currentVersion } from '@aggregation/openapi/contract';
import { generatorsBundlePath } from '@aggregation/openapi/generators';

export const packageDir = fileURLToPath(new URL('..', import.meta.url));
export const repoRoot = join(packageDir, '..', '..');

/** Generated clients (never committed): clients/python, clients/go, and the tools' virtualenv. */
export const clientsDir = join(repoRoot, 'clients');
export const pythonClientDir = join(clientsDir, 'python');
export const goClientDir = join(clientsDir, 'go');
export const venvDir = join(clientsDir, '.venv');

/** The description the clients are generated from: the generators' variant of the current version's bundle. */
export const bundlePath = generatorsBundlePath(currentVersion);

/** Run outputs of the tests (gitignored). */
export const artifactsDir = join(packageDir, 'artifacts');

/** `$XDG_CACHE_HOME/aggregation-polyglot`, else `~/.cache/aggregation-polyglot`: installed tools, kept like pip's own cache. */
export function toolsCacheDir(env: NodeJS.ProcessEnv = process.env): string {
  return userCacheDir('aggregation-polyglot', env);
}
