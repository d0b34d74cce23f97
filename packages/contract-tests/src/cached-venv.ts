// A virtualenv of pinned Python tools kept in the user's cache (never inside node_modules, which may be read-only),
// shared by every run and checkout on the machine: `<cacheDir>/<name>-<key>`, the key naming the pins, the Python
// version and the interpreter's path, so a changed pin or Python gets a virtualenv of its own.
//
// It is made once, under a lock, at a name of its own (its scripts name their own path, so it is never moved) and
// marked `.complete`; `<name>-<key>` is then a link to it, put in place by one rename. A run therefore finds either
// no virtualenv or a complete one, and what a killed run left half made is removed by the next. Each run marks the
// one it uses, and removes the others of its name that went unused for five days.
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, realpath, rename, rm, stat, symlink, utimes, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { withLock } from './lock.ts';

export { withLock } from './lock.ts';

const run = promisify(execFile);

/** The user's cache folder for `name`: `$XDG_CACHE_HOME/<name>`, else `~/.cache/<name>`. */
export function userCacheDir(name: string, env: NodeJS.ProcessEnv = process.env): string {
  return join(env.XDG_CACHE_HOME || join(homedir(), '.cache'), name);
}

/** What pip installs: a pinned requirements file, or other arguments (packages, `-c` constraints) and what names them. */
export type VenvContents = { requirements: string } | { packages: readonly string[]; key: string | Buffer };

export type CachedVenvSpec = VenvContents & {
  /** The interpreter the virtualenv is made from. */
  python: string;
  /** Where the virtualenvs are kept (created when missing). */
  cacheDir: string;
  /** The first word of the virtualenv's name. */
  name: string;
  /** More arguments for `pip install` (e.g. `--only-binary=:all:`). */
  pipArgs?: readonly string[];
  /** Told once when an install starts. */
  log?: (line: string) => void;
};

export type CachedVenv = { dir: string; python: string };

/** `<cacheDir>/<name>-<key>`: the same contents, Python version and interpreter name the same virtualenv. */
export async function cachedVenvDir(spec: VenvContents & Pick<CachedVenvSpec, 'python' | 'cacheDir' | 'name'>): Promise<string> {
  // Asked of Python itself, so that a bare name (`python3`) is keyed by the interpreter it finds on PATH.
  const { stdout } = await run(spec.python, ['-c', 'import json, os, sys; print(json.dumps([sys.version, os.path.realpath(sys.executable)]))']);
  const [version, interpreter] = JSON.parse(stdout) as [string, string];
  const key = createHash('sha256')
    .update('requirements' in spec ? await readFile(spec.requirements) : spec.key)
    .update('\0')
    .update(version)
    .update('\0')
    .update(interpreter);
  return join(spec.cacheDir, `${spec.name}-${key.digest('hex').slice(0, 16)}`);
}

const isComplete = (dir: string) => existsSync(join(dir, '.complete'));

/** The virtualenv, made when missing. Throws with pip's (or venv's) own words on failure. */
export async function ensureCachedVenv(spec: CachedVenvSpec): Promise<CachedVenv> {
  const venv = await madeVenv(spec);
  await markUsed(venv.dir);
  await removeUnused(spec.cacheDir, spec.name, venv.dir);
  return venv;
}

async function madeVenv(spec: CachedVenvSpec): Promise<CachedVenv> {
  const dir = await cachedVenvDir(spec);
  const venv = { dir, python: join(dir, 'bin', 'python') };
  if (isComplete(dir)) return venv;
  await mkdir(spec.cacheDir, { recursive: true });
  await withLock(`${dir}.lock`, async () => {
    if (isComplete(dir)) return;
    await removeHalfMade(dir);
    const made = `${dir}.${process.pid}.${Date.now()}`;
    spec.log?.(`installing ${installed(spec).join(' ')} into ${dir}`);
    try {
      await makeVenv(spec, made);
      await writeFile(join(made, '.complete'), '');
      const link = `${dir}.link.${process.pid}`;
      // Relative: a cache directory restored elsewhere (a CI cache) still links to its own copy.
      await symlink(basename(made), link);
      await rename(link, dir);
    } catch (error) {
      await rm(made, { recursive: true, force: true });
      throw error;
    }
  });
  return venv;
}

async function makeVenv(spec: CachedVenvSpec, dir: string): Promise<void> {
  try {
    await run(spec.python, ['-m', 'venv', dir]);
  } catch (error) {
    throw new Error(`${spec.python} -m venv failed (on Debian and Ubuntu: apt-get install python3-venv): ${stderrOf(error)}`);
  }
  try {
    await run(
      join(dir, 'bin', 'python'),
      ['-m', 'pip', 'install', '--quiet', '--disable-pip-version-check', '--no-input', ...(spec.pipArgs ?? []), ...installed(spec)],
      { maxBuffer: 16 * 1024 * 1024 },
    );
  } catch (error) {
    throw new Error(`pip install ${installed(spec).join(' ')} failed: ${stderrOf(error)}`);
  }
}

/**
 * How long a virtualenv may go unused before a run of the same name removes it (Go trims its build cache of what
 * went unused for five days): a changed pin or Python makes a new one each time, and the old ones would stay.
 */
const UNUSED_FOR_MS = 5 * 24 * 60 * 60_000;

/** A run's use of the virtualenv, as the time of its mark. */
async function markUsed(dir: string): Promise<void> {
  const now = new Date();
  await utimes(join(dir, '.complete'), now, now);
}

/**
 * The other complete virtualenvs of this name that no run used for UNUSED_FOR_MS, removed (the link and what it
 * names) under their own lock, so that no run makes one while it goes. Half-made ones are left to their own name's
 * next run.
 */
async function removeUnused(cacheDir: string, name: string, keep: string): Promise<void> {
  const sibling = new RegExp(`^${name.replace(/[^A-Za-z0-9_-]/g, '\\$&')}-[0-9a-f]{16}$`);
  const unused = async (dir: string) => {
    const used = (await stat(join(dir, '.complete')).catch(() => undefined))?.mtimeMs;
    return used !== undefined && Date.now() - used > UNUSED_FOR_MS;
  };
  for (const entry of await readdir(cacheDir)) {
    const dir = join(cacheDir, entry);
    if (!sibling.test(entry) || dir === keep || !(await unused(dir))) continue;
    await withLock(`${dir}.lock`, async () => {
      if (!(await unused(dir))) return;
      // The link first, so that a run finds none rather than one half removed; earlier versions made it in place.
      const made = await realpath(dir);
      if (made !== dir) await rm(dir, { force: true });
      await rm(made, { recursive: true, force: true });
    });
  }
}

/**
 * What a killed run left for this name, removed while holding its lock (no run is making it then): a virtualenv
 * under the name itself without its mark (made in place by earlier versions), a link to one, and the directories
 * of makings that never finished.
 */
async function removeHalfMade(dir: string): Promise<void> {
  await rm(dir, { recursive: true, force: true });
  const making = new RegExp(`^${basename(dir)}\\.(\\d+\\.\\d+|link\\.\\d+)$`);
  for (const entry of await readdir(dirname(dir))) {
    if (making.test(entry)) await rm(join(dirname(dir), entry), { recursive: true, force: true });
  }
}

const installed = (contents: VenvContents) => ('requirements' in contents ? ['-r', contents.requirements] : contents.packages);

const stderrOf = (error: unknown) => (error as { stderr?: string }).stderr || String(error);
