// One install of the packed npm packages for every test file: a project made from consumer/ (an integrator's, with
// TypeScript, @types/node and esbuild) with the client, the server, the CLI and the widget's package installed from their tarballs.
// Installing costs tens of seconds of CPU; each file works on a copy of its own, since each writes into its project.
// It runs in the background: the files that do not use it (the contract tests' empty project, the pack checks) start
// at once, and the others wait for its status file (copyInstalledProject).
import { cp, mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { installPacked, temporaryDir } from './project.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The installed project, and the file that says once the install is over whether it worked (`{}` or `{ error }`). */
    installedProject: { dir: string; status: string };
  }
}

export const consumerTemplate = join(import.meta.dirname, '..', '..', 'consumer');
/** The published packages the shared project installs, with what they depend on. */
export const installedPackages = ['@aggregation/client', '@aggregation/server', '@aggregation/cli', '@aggregation/connect'];

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const root = await temporaryDir('aggregation-installed-');
  const dir = join(root, 'project');
  const status = join(root, 'status.json');
  // Written whole under another name, then renamed: a file that waits for it never reads half of it.
  const settle = async (outcome: { error?: string }) => {
    await writeFile(`${status}.partial`, JSON.stringify(outcome));
    await rename(`${status}.partial`, status);
  };
  const installing = (async () => {
    try {
      await mkdir(dir);
      await cp(consumerTemplate, dir, { recursive: true });
      await installPacked(dir, installedPackages);
      await settle({});
    } catch (error) {
      await settle({ error: (error as Error).message });
    }
  })();
  project.provide('installedProject', { dir, status });
  return async () => {
    await installing;
    await rm(root, { recursive: true, force: true, maxRetries: 3 });
  };
}
