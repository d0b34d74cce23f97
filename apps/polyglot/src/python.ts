// The Python client: openapi-python-client, pinned in requirements.txt and installed into a virtualenv of the project's
// Python tools, generates the package `aggregation_client` into clients/python.
import { existsSync, lstatSync, mkdirSync, realpathSync, renameSync, rmSync, symlinkSync } from 'node:fs';
import { delimiter, dirname, join } from 'node:path';
import { cachedVenvDir, ensureCachedVenv } from '@aggregation/contract-tests/cached-venv';
import { bundlePath, packageDir, pythonClientDir, toolsCacheDir, venvDir } from './paths.ts';
import { run } from './run.ts';
import { hashFiles, isUpToDateOrKept, markUpToDateAndKeep } from './stamp.ts';

export { toolsCacheDir };

export const requirementsFile = join(packageDir, 'requirements.txt');
const configFile = join(packageDir, 'openapi-python-client.yaml');

export const venvBin = join(venvDir, 'bin');
export const venvPython = join(venvBin, 'python');

/** The cached virtualenv for these pins and this Python: a changed pin, Python version or interpreter gets its own. */
export function toolsVenvDir(python: string, cacheDir = toolsCacheDir(), requirements = requirementsFile): Promise<string> {
  return cachedVenvDir({ python, requirements, cacheDir, name: 'tools' });
}

/**
 * The virtualenv with the pinned requirements, at clients/.venv: a link to one kept in the user's cache, so that a
 * clean checkout does not install the same pins again.
 */
export async function ensureVenv(python: string): Promise<string> {
  // Wheels only: a package that has none fails at once instead of compiling from source for minutes.
  const { dir: cached } = await ensureCachedVenv({
    python,
    requirements: requirementsFile,
    cacheDir: toolsCacheDir(),
    name: 'tools',
    pipArgs: ['--only-binary=:all:'],
  });
  linkVenv(cached, venvDir);
  return venvPython;
}

/** Points `link` (under clients/) at a virtualenv kept in the user's cache. */
export function linkVenv(cached: string, link: string): void {
  mkdirSync(dirname(link), { recursive: true });
  if (existsSync(link) && realpathSync(link) === realpathSync(cached)) return;
  // Replaced in one step (a rename over the old link), so that another run never finds the link missing.
  const partial = `${link}.${process.pid}`;
  rmSync(partial, { force: true });
  symlinkSync(cached, partial);
  // A virtualenv made in place by earlier versions of this script is a directory, which a rename cannot replace.
  if (lstatSync(link, { throwIfNoEntry: false })?.isDirectory()) rmSync(link, { recursive: true, force: true });
  renameSync(partial, link);
}

/** Environment for the venv's programs (the generator runs ruff from it). */
export function venvEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  return { ...process.env, PATH: `${venvBin}${delimiter}${process.env.PATH ?? ''}`, VIRTUAL_ENV: venvDir, ...extra };
}

export async function generatePythonClient(): Promise<'generated' | 'up to date'> {
  const hash = hashFiles([bundlePath, requirementsFile, configFile]);
  if (isUpToDateOrKept(pythonClientDir, hash)) return 'up to date';
  rmSync(pythonClientDir, { recursive: true, force: true });
  // --fail-on-warning: whatever in the description trips the generator fails here, to be fixed in the description.
  await run(
    join(venvBin, 'openapi-python-client'),
    ['generate', '--path', bundlePath, '--output-path', pythonClientDir, '--meta', 'setup', '--config', configFile, '--fail-on-warning'],
    { env: venvEnv() },
  );
  markUpToDateAndKeep(pythonClientDir, hash);
  return 'generated';
}
