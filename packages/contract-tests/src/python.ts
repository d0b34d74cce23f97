// The Python environment that holds Schemathesis, made from the pinned requirements.txt of this package into a cache
// directory (never inside node_modules, which may be read-only): `<cache>/schemathesis-<hash>`, a cached virtualenv
// (cached-venv.ts) that several runs, or projects, share.
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { ensureCachedVenv, userCacheDir } from './cached-venv.ts';

const run = promisify(execFile);

/** The installed package's own directory (`dist/..` or `src/..`): where its requirements and settings are. */
export const packageDir = join(import.meta.dirname, '..');
const requirements = join(packageDir, 'requirements.txt');

/** Schemathesis 4 needs Python 3.11 or newer. */
const minimum = [3, 11] as const;

/** `$XDG_CACHE_HOME/aggregation-contract-tests`, else `~/.cache/aggregation-contract-tests`. */
export function defaultCacheDir(env: NodeJS.ProcessEnv = process.env): string {
  return userCacheDir('aggregation-contract-tests', env);
}

export type Python = { python: string; version: string };
export type PythonEnv = { python: string; dir: string };

/** The given Python when it is recent enough; otherwise why not, in a sentence. */
export async function findPython(python: string): Promise<Python | { missing: string }> {
  try {
    const { stdout } = await run(python, ['-c', 'import sys; print("%d.%d.%d" % sys.version_info[:3])']);
    const version = stdout.trim();
    const [major = 0, minor = 0] = version.split('.').map(Number);
    if (major < minimum[0] || (major === minimum[0] && minor < minimum[1])) {
      return { missing: `${python} is Python ${version}; Schemathesis needs Python ${minimum.join('.')} or newer` };
    }
    return { python, version };
  } catch {
    return { missing: `${python} was not found (on PATH, or as given by --python / PYTHON)` };
  }
}

/** Makes the environment when it is missing; answers its python. Throws with pip's own words on failure. */
export async function ensureEnv(found: Python, cacheDir: string, log: (line: string) => void): Promise<PythonEnv> {
  return ensureCachedVenv({ python: found.python, requirements, cacheDir, name: 'schemathesis', log });
}
