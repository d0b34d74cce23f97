// The Python client: openapi-python-client, pinned in requirements.txt and installed into a virtualenv of the project's
// Python tools, generates the package `aggregation_client` into clients/python.
import { existsSync, lstatSync, mkdirSync, realpathSync, renameSync, rmSync, symlinkSync } from 'node:fs';
import { homedir } from 'node:os';
import { delimiter, join } from 'node:path';
import { cachedVenvDir, ensureCachedVenv } from '@aggregation/contract-tests/cached-venv';
import { bundlePath, clientsDir, packageDir, pythonClientDir, venvDir } from './paths.ts';
import { run } from './run.ts';
import { hashFiles, isUpToDate, markUpToDate } from './stamp.ts';

export const requirementsFile = join(packageDir, 'requirements.txt');
const configFile = join(packageDir, 'openapi-python-client.yaml');

export const venvBin = join(venvDir, 'bin');
export const venvPython = join(venvBin, 'python');

/** `$XDG_CACHE_HOME/aggregation-polyglot`, else `~/.cache/aggregation-polyglot`: installed tools, kept like pip's own cache. */
export function toolsCacheDir(env: NodeJS.ProcessEnv = process.env): string {
  return join(env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'aggregation-polyglot');
}

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
  mkdirSync(clientsDir, { recursive: true });
  if (!existsSync(venvDir) || realpathSync(venvDir) !== realpathSync(cached)) {
    // Replaced in one step (a rename over the old link), so that another run never finds clients/.venv missing.
    const link = `${venvDir}.${process.pid}`;
    rmSync(link, { force: true });
    symlinkSync(cached, link);
    // A virtualenv made in place by earlier versions of this script is a directory, which a rename cannot replace.
    if (lstatSync(venvDir, { throwIfNoEntry: false })?.isDirectory()) rmSync(venvDir, { recursive: true, force: true });
    renameSync(link, venvDir);
  }
  return venvPython;
}

/** Environment for the venv's programs (the generator runs ruff from it). */
export function venvEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  return { ...process.env, PATH: `${venvBin}${delimiter}${process.env.PATH ?? ''}`, VIRTUAL_ENV: venvDir, ...extra };
}

export async function generatePythonClient(): Promise<'generated' | 'up to date'> {
  const hash = hashFiles([bundlePath, requirementsFile, configFile]);
  if (isUpToDate(pythonClientDir, hash)) return 'up to date';
  rmSync(pythonClientDir, { recursive: true, force: true });
  // --fail-on-warning: whatever in the description trips the generator fails here, to be fixed in the description.
  await run(
    join(venvBin, 'openapi-python-client'),
    ['generate', '--path', bundlePath, '--output-path', pythonClientDir, '--meta', 'setup', '--config', configFile, '--fail-on-warning'],
    { env: venvEnv() },
  );
  markUpToDate(pythonClientDir, hash);
  return 'generated';
}
