// The Python client: openapi-python-client, pinned in requirements.txt and installed into a virtualenv of the project's
// Python tools, generates the package `aggregation_client` into clients/python.
import { createHash } from 'node:crypto';
import { existsSync, lstatSync, mkdirSync, readFileSync, realpathSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { withLock } from './lock.ts';
import { bundlePath, packageDir, pythonClientDir, toolsCacheDir, venvDir } from './paths.ts';
import { run } from './run.ts';
import { hashFiles, isUpToDateOrKept, markUpToDateAndKeep } from './stamp.ts';

export { toolsCacheDir };

export const requirementsFile = join(packageDir, 'requirements.txt');
const configFile = join(packageDir, 'openapi-python-client.yaml');

export const venvBin = join(venvDir, 'bin');
export const venvPython = join(venvBin, 'python');

/** The cached virtualenv for these pins and this Python: a changed pin, Python version or interpreter gets its own. */
/** A virtualenv's folder in the cache: `name`, keyed by what is installed in it and by the Python it is made with. */
export async function cachedVenvDir(name: string, python: string, installed: string | Buffer, cache = toolsCacheDir()): Promise<string> {
  const { stdout: version } = await run(python, ['-c', 'import sys; print(sys.version)']);
  const key = createHash('sha256').update(installed).update('\0').update(version.trim()).update('\0').update(realpathSync(python));
  return join(cache, `${name}-${key.digest('hex').slice(0, 16)}`);
}

/** The cached virtualenv for these pins and this Python: a changed pin, Python version or interpreter gets its own. */
export async function toolsVenvDir(python: string, cache = toolsCacheDir(), requirements = requirementsFile): Promise<string> {
  return cachedVenvDir('tools', python, readFileSync(requirements), cache);
}

/**
 * A virtualenv kept at `cached` in the user's cache, linked from `link` under clients/ so that a clean checkout does
 * not install the same packages again. It is made in place (its scripts name their own path) by `install`, under a
 * lock, and used only once marked complete.
 */
export async function linkCachedVenv(python: string, cached: string, link: string, install: (venvPython: string) => Promise<void>): Promise<void> {
  const complete = join(cached, '.complete');
  if (!existsSync(complete)) {
    mkdirSync(join(cached, '..'), { recursive: true });
    await withLock(`${cached}.lock`, async () => {
      if (existsSync(complete)) return;
      // Made afresh: a venv whose making was interrupted (a stopped run) may lack pip.
      rmSync(cached, { recursive: true, force: true });
      await run(python, ['-m', 'venv', cached]);
      await install(join(cached, 'bin', 'python'));
      writeFileSync(complete, '');
    });
  }
  mkdirSync(join(link, '..'), { recursive: true });
  if (!existsSync(link) || realpathSync(link) !== realpathSync(cached)) {
    // Replaced in one step (a rename over the old link), so that another run never finds the link missing.
    const partial = `${link}.${process.pid}`;
    rmSync(partial, { force: true });
    symlinkSync(cached, partial);
    // A virtualenv made in place by earlier versions of this script is a directory, which a rename cannot replace.
    if (lstatSync(link, { throwIfNoEntry: false })?.isDirectory()) rmSync(link, { recursive: true, force: true });
    renameSync(partial, link);
  }
}

/** The virtualenv with the pinned requirements, at clients/.venv, kept in the user's cache (linkCachedVenv). */
export async function ensureVenv(python: string): Promise<string> {
  await linkCachedVenv(python, await toolsVenvDir(python), venvDir, async (venv) => {
    // Wheels only: a package that has none fails at once instead of compiling from source for minutes.
    await run(venv, ['-m', 'pip', 'install', '--quiet', '--disable-pip-version-check', '--only-binary=:all:', '-r', requirementsFile]);
  });
  return venvPython;
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
