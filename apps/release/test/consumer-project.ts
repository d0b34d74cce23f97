// What the consumer tests share: a project outside the repository made from the packed tarballs, and the environment
// and Node.js a separate project runs with.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { copyFile, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { which } from '@aggregation/test-support';
import { publishedPackages, releaseDir, tarballName, withDependencies } from '../src/packages.ts';

const run = promisify(execFile);

/** The machine's own Node.js: the first `node` on PATH that is not the project's pinned one under node_modules. */
export function machineNode(): string | undefined {
  return which('node', (dir) => !dir.includes('node_modules'));
}

/** The environment of a separate project: none of the npm settings or Node options of the script running this test. */
export function cleanEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => !/^(npm_|NODE_OPTIONS$|INIT_CWD$|TURBO_)/i.test(key)));
  return { ...env, ...extra };
}

/**
 * Copies the tarballs of `names` and of the published packages they depend on into `<project>/tarballs/`; answers each
 * package with its `file:` spec. Fails when `npm run release:pack` has not written one.
 */
export async function copyTarballs(project: string, names: string[]): Promise<{ name: string; spec: string; file: string }[]> {
  const packages = await withDependencies(await publishedPackages(), names);
  await mkdir(join(project, 'tarballs'), { recursive: true });
  return Promise.all(
    packages.map(async (entry) => {
      const file = tarballName(entry);
      assert.ok(existsSync(join(releaseDir, file)), `${file} is missing from dist/release: npm run release:pack`);
      await copyFile(join(releaseDir, file), join(project, 'tarballs', file));
      return { name: entry.name, spec: `file:tarballs/${file}`, file };
    }),
  );
}

/** Adds the packages to the project's dependencies and installs them as an integrator would. */
export async function installProject(project: string, packages: { name: string; spec: string }[]): Promise<void> {
  const manifest = JSON.parse(await readFile(join(project, 'package.json'), 'utf8')) as { dependencies?: Record<string, string> };
  manifest.dependencies = Object.fromEntries(packages.map((entry) => [entry.name, entry.spec]));
  await writeFile(join(project, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  await run('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', '--engine-strict=false'], {
    cwd: project,
    env: cleanEnv(),
    maxBuffer: 16 * 1024 * 1024,
  });
}
