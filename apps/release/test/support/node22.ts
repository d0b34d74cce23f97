// Node.js 22 from the registry (the npm package `node@22`), installed once into the user's cache and kept there like
// npm's and pip's own caches: the install unpacks a whole Node.js, which every run would otherwise pay for again.
// It is made under a lock, in a folder marked `.complete` once its `node` answers as a 22, so that a run finds either
// none or a working one, and what a killed run left half made is made again.
import { existsSync } from 'node:fs';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { userCacheDir, withLock } from '@aggregation/contract-tests/cached-venv';
import { cleanEnv, run } from './project.ts';

/** `$XDG_CACHE_HOME/aggregation-release/node22`, else `~/.cache/aggregation-release/node22`. */
export const node22CacheDir = (env: NodeJS.ProcessEnv = process.env): string => join(userCacheDir('aggregation-release', env), 'node22');

/** The folder whose `node` is Node.js 22: to put first on PATH. Installs it on first use. */
export async function node22Bin(dir = node22CacheDir()): Promise<string> {
  const bin = join(dir, 'node_modules', '.bin');
  const complete = join(dir, '.complete');
  if (existsSync(complete)) return bin;
  await mkdir(dirname(dir), { recursive: true });
  await withLock(`${dir}.lock`, async () => {
    if (existsSync(complete)) return;
    await rm(dir, { recursive: true, force: true });
    await mkdir(dir);
    // In a folder of its own: installed into a project, its `node` would come first on the PATH that `npx` makes.
    await writeFile(join(dir, 'package.json'), JSON.stringify({ private: true, allowScripts: { node: true } }));
    await run('npm', ['install', 'node@22', '--no-audit', '--no-fund', '--prefer-offline'], { cwd: dir, env: cleanEnv() });
    const { stdout } = await run(join(bin, 'node'), ['--version']);
    if (!stdout.startsWith('v22.')) throw new Error(`node@22 installed ${stdout.trim()}`);
    await writeFile(complete, '');
  });
  return bin;
}
