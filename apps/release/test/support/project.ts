// A project of an integrator's, outside the repository: made in a temporary folder, with the packed tarballs of
// dist/release/ as its dependencies and everything else from the registry, as `npm install` would make it.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { copyFile, cp, mkdir, mkdtemp, readFile, realpath, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import { linkedCopy } from '@aggregation/test-support';
import { publishedPackages, releaseDir, tarballName, withDependencies } from '../../src/packages.ts';

export const run = promisify(execFile);

/**
 * The environment of a separate project: none of the npm settings or Node options of the script running this test,
 * and no node_modules/.bin of the repository on PATH (so `node` and `npx` are the machine's unless `nodeDir` says).
 */
export function cleanEnv(extra: Record<string, string> = {}, nodeDir?: string): NodeJS.ProcessEnv {
  const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => !/^(npm_|NODE_OPTIONS$|INIT_CWD$|TURBO_)/i.test(key)));
  const path = (env.PATH ?? '').split(delimiter).filter((dir) => dir && !dir.includes('node_modules'));
  return { ...env, PATH: [...(nodeDir ? [nodeDir] : []), ...path].join(delimiter), ...extra };
}

/** A new empty folder under the system's temporary directory, by its real path. */
export const temporaryDir = async (prefix: string): Promise<string> => realpath(await mkdtemp(join(tmpdir(), prefix)));

/** A packed package copied into a project: its name, its tarball's file name, and the `file:` spec that installs it. */
export type CopiedTarball = { name: string; file: string; spec: string };

/**
 * Copies the tarballs of `names` and of the published packages they depend on into `<dir>/tarballs/`. Fails when
 * `npm run release:pack` has not written one.
 */
export async function copyTarballs(dir: string, names: string[]): Promise<CopiedTarball[]> {
  const packages = await withDependencies(await publishedPackages(), names);
  await mkdir(join(dir, 'tarballs'), { recursive: true });
  return Promise.all(
    packages.map(async (entry) => {
      const file = tarballName(entry);
      assert.ok(existsSync(join(releaseDir, file)), `${file} is missing from dist/release: npm run release:pack`);
      await copyFile(join(releaseDir, file), join(dir, 'tarballs', file));
      return { name: entry.name, file, spec: `file:tarballs/${file}` };
    }),
  );
}

/**
 * Adds the tarballs of `names` and of the published packages they depend on to the project in `dir` (its
 * package.json made if missing) and runs `npm install` there.
 */
export async function installPacked(dir: string, names: string[]): Promise<void> {
  const manifestPath = join(dir, 'package.json');
  const manifest = existsSync(manifestPath)
    ? (JSON.parse(await readFile(manifestPath, 'utf8')) as { dependencies?: Record<string, string> })
    : { name: 'aggregation-consumer', private: true, type: 'module' };
  const dependencies: Record<string, string> = { ...('dependencies' in manifest ? manifest.dependencies : {}) };
  for (const tarball of await copyTarballs(dir, names)) dependencies[tarball.name] = tarball.spec;
  await writeFile(manifestPath, `${JSON.stringify({ ...manifest, dependencies }, null, 2)}\n`);
  await run('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', '--engine-strict=false'], {
    cwd: dir,
    env: cleanEnv(),
    maxBuffer: 16 * 1024 * 1024,
  });
}

/**
 * A copy of the project that the test setup installs once (support/installed.ts), in a new temporary folder, once the
 * install is over: links kept as they are, so that node_modules/.bin still leads into the copy. Its node_modules is
 * hard-linked (no test rewrites an installed file; they add files, and move the server's folder): the files that use
 * it run at once.
 */
export async function copyInstalledProject(installed: { dir: string; status: string }, prefix: string): Promise<string> {
  // Written by the setup when the install ends, however it ends; the hook's own time limit bounds the wait.
  while (!existsSync(installed.status)) await sleep(100);
  const { error } = JSON.parse(await readFile(installed.status, 'utf8')) as { error?: string };
  if (error) throw new Error(`the packed packages could not be installed: ${error}`);
  const dir = await temporaryDir(prefix);
  const modules = join(installed.dir, 'node_modules');
  await cp(installed.dir, dir, { recursive: true, verbatimSymlinks: true, filter: (source) => source !== modules });
  linkedCopy(modules, join(dir, 'node_modules'));
  return dir;
}
