// The Python client: openapi-python-client, pinned in requirements.txt and installed into a project-local
// virtualenv (clients/.venv), generates the package `aggregation_client` into clients/python.
import { mkdirSync, rmSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { bundlePath, clientsDir, packageDir, pythonClientDir, venvDir } from './paths.ts';
import { run } from './run.ts';
import { hashFiles, isUpToDate, markUpToDate } from './stamp.ts';

export const requirementsFile = join(packageDir, 'requirements.txt');
const configFile = join(packageDir, 'openapi-python-client.yaml');

export const venvBin = join(venvDir, 'bin');
export const venvPython = join(venvBin, 'python');

/** The virtualenv with the pinned requirements; (re)installs them only when requirements.txt changed. */
export async function ensureVenv(python: string): Promise<string> {
  mkdirSync(clientsDir, { recursive: true });
  const hash = hashFiles([requirementsFile]);
  if (!isUpToDate(venvDir, hash)) {
    // Made afresh: a venv whose making was interrupted (a stopped run) may lack pip.
    rmSync(venvDir, { recursive: true, force: true });
    await run(python, ['-m', 'venv', venvDir]);
    // Wheels only: a package that has none fails at once instead of compiling from source for minutes.
    await run(venvPython, ['-m', 'pip', 'install', '--quiet', '--disable-pip-version-check', '--only-binary=:all:', '-r', requirementsFile]);
    markUpToDate(venvDir, hash);
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
