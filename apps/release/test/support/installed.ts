// One install of the packed npm packages for every test file: a project made from consumer/ (an integrator's, with
// TypeScript, @types/node and esbuild) with the client, the server and the CLI installed from their tarballs.
// Installing costs tens of seconds of CPU; each file works on a copy of its own, since each writes into its project.
import { cp, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { installPacked, temporaryDir } from './project.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The installed project, or why it could not be made (the files that need it fail with that). */
    installedProject: { dir: string } | { error: string };
  }
}

export const consumerTemplate = join(import.meta.dirname, '..', '..', 'consumer');
/** The published packages the shared project installs, with what they depend on. */
export const installedPackages = ['@aggregation/client', '@aggregation/server', '@aggregation/cli'];

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const dir = await temporaryDir('aggregation-installed-');
  try {
    await cp(consumerTemplate, dir, { recursive: true });
    await installPacked(dir, installedPackages);
    project.provide('installedProject', { dir });
  } catch (error) {
    project.provide('installedProject', { error: (error as Error).message });
  }
  return () => rm(dir, { recursive: true, force: true, maxRetries: 3 });
}
