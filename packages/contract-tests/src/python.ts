// The Python environment that holds Schemathesis, made from the pinned requirements.txt of this package into a cache
// directory (never inside node_modules, which may be read-only): `<cache>/schemathesis-<hash>`, the hash naming the
// requirements and the Python version, so a changed pin or Python gets an environment of its own and several runs
// (or projects) share one. It is made under a temporary name and renamed into place, so runs that start together
// never use a half-made one; Schemathesis is run as `python -m schemathesis.cli`, which does not mind the rename.
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** The installed package's own directory (`dist/..` or `src/..`): where its requirements and settings are. */
export const packageDir = join(import.meta.dirname, '..');
const requirements = join(packageDir, 'requirements.txt');

/** Schemathesis 4 needs Python 3.11 or newer. */
const minimum = [3, 11] as const;

/** `$XDG_CACHE_HOME/aggregation-contract-tests`, else `~/.cache/aggregation-contract-tests`. */
export function defaultCacheDir(env: NodeJS.ProcessEnv = process.env): string {
  return join(env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'aggregation-contract-tests');
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
  const pins = await readFile(requirements);
  const hash = createHash('sha256').update(pins).update(found.version).digest('hex').slice(0, 16);
  const dir = join(cacheDir, `schemathesis-${hash}`);
  const python = join(dir, 'bin', 'python');
  if (existsSync(join(dir, '.complete'))) return { python, dir };

  await mkdir(cacheDir, { recursive: true });
  const building = `${dir}.${process.pid}.${Date.now()}`;
  log(`installing Schemathesis (requirements.txt) into ${dir}`);
  try {
    await run(found.python, ['-m', 'venv', building]);
  } catch (error) {
    await rm(building, { recursive: true, force: true });
    throw new Error(
      `${found.python} -m venv failed (on Debian and Ubuntu: apt-get install python3-venv): ${(error as { stderr?: string }).stderr ?? error}`,
    );
  }
  try {
    await run(join(building, 'bin', 'python'), ['-m', 'pip', 'install', '--quiet', '--disable-pip-version-check', '--no-input', '-r', requirements], {
      maxBuffer: 16 * 1024 * 1024,
    });
    await writeFile(join(building, '.complete'), `${hash}\n`);
    await rename(building, dir);
  } catch (error) {
    await rm(building, { recursive: true, force: true });
    // Another run finished the same environment first: use it.
    if (existsSync(join(dir, '.complete'))) return { python, dir };
    throw new Error(`pip install -r requirements.txt failed: ${(error as { stderr?: string }).stderr ?? error}`);
  }
  return { python, dir };
}
