// The project-local Python environment that holds Schemathesis: created from the pinned requirements.txt when it
// is missing or when that file changed since it was made.
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

export const packageDir = join(import.meta.dirname, '..');
const venvDir = join(packageDir, '.venv');
const requirements = join(packageDir, 'requirements.txt');
const stamp = join(venvDir, '.requirements.sha256');

/** Schemathesis 4 needs Python 3.11 or newer. */
const minimum = [3, 11];

export type PythonEnv = { schemathesis: string };

/** The python3 on PATH when it is recent enough, otherwise why not. */
export async function findPython(): Promise<{ python: string } | { missing: string }> {
  const python = process.env.PYTHON ?? 'python3';
  try {
    const { stdout } = await run(python, ['-c', 'import sys; print("%d.%d" % sys.version_info[:2])']);
    const [major = 0, minor = 0] = stdout.trim().split('.').map(Number);
    if (major < minimum[0]! || (major === minimum[0] && minor < minimum[1]!)) {
      return { missing: `${python} is ${stdout.trim()}; Schemathesis needs Python ${minimum.join('.')} or newer` };
    }
    return { python };
  } catch {
    return { missing: `${python} was not found on PATH` };
  }
}

/** Creates or refreshes .venv; answers the schemathesis executable. Throws with pip's own output on failure. */
export async function ensureEnv(python: string, log: (line: string) => void): Promise<PythonEnv> {
  const wanted = createHash('sha256')
    .update(await readFile(requirements))
    .digest('hex');
  const schemathesis = join(venvDir, 'bin', 'schemathesis');
  const current = existsSync(stamp) ? (await readFile(stamp, 'utf8')).trim() : undefined;
  if (current === wanted && existsSync(schemathesis)) return { schemathesis };

  log(`creating ${venvDir} from requirements.txt`);
  await rm(venvDir, { recursive: true, force: true });
  try {
    await run(python, ['-m', 'venv', venvDir]);
  } catch (error) {
    throw new Error(`${python} -m venv failed (on Debian/Ubuntu install python3-venv): ${(error as { stderr?: string }).stderr ?? error}`);
  }
  const pip = join(venvDir, 'bin', 'python');
  try {
    await run(pip, ['-m', 'pip', 'install', '--quiet', '--disable-pip-version-check', '--no-input', '-r', requirements], {
      maxBuffer: 16 * 1024 * 1024,
    });
  } catch (error) {
    await rm(venvDir, { recursive: true, force: true });
    throw new Error(`pip install -r requirements.txt failed: ${(error as { stderr?: string }).stderr ?? error}`);
  }
  await writeFile(stamp, `${wanted}\n`);
  return { schemathesis };
}
