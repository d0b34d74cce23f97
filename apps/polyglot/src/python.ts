// The Python client: openapi-python-client, pinned in requirements.txt and installed into a virtualenv of the project's
// Python tools, generates the package `aggregation_client` into clients/python.
import { createHash } from 'node:crypto';
import { existsSync, lstatSync, mkdirSync, readFileSync, realpathSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { delimiter, join } from 'node:path';
import { withLock } from './lock.ts';
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
export async function toolsVenvDir(python: string, cache = toolsCacheDir(), requirements = requirementsFile): Promise<string> {
  const { stdout: version } = await run(python, ['-c', 'import sys; print(sys.version)']);
  const key = createHash('sha256').update(readFileSync(requirements)).update('\0').update(version.trim()).update('\0').update(realpathSync(python));
  return join(cache, `tools-${key.digest('hex').slice(0, 16)}`);
}

/**
 * The virtualenv with the pinned requirements, at clients/.venv: a link to one kept in the user's cache, so that a
 * clean checkout does not install the same pins again. It is made in place (its scripts name their own path), under
 * a lock, and used only once marked complete.
 */
export async function ensureVenv(python: string): Promise<string> {
  const cached = await toolsVenvDir(python);
  const complete = join(cached, '.complete');
  if (!existsSync(complete)) {
    mkdirSync(join(cached, '..'), { recursive: true });
    await withLock(`${cached}.lock`, async () => {
      if (existsSync(complete)) return;
      // Made afresh: a venv whose making was interrupted (a stopped run) may lack pip.
      rmSync(cached, { recursive: true, force: true });
      await run(python, ['-m', 'venv', cached]);
      // Wheels only: a package that has none fails at once instead of compiling from source for minutes.
      await run(join(cached, 'bin', 'python'), [
        '-m',
        'pip',
        'install',
        '--quiet',
        '--disable-pip-version-check',
        '--only-binary=:all:',
        '-r',
        requirementsFile,
      ]);
      writeFileSync(complete, '');
    });
  }
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
