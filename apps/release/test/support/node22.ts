// Node.js 22 from the registry (the npm package `node@22`), installed once into the user's cache and kept there
// (test-support's `registryNodeBin`): the install unpacks a whole Node.js, which every run would otherwise pay for again.
import { join } from 'node:path';
import { registryNodeBin } from '@aggregation/test-support';
import { run } from './project.ts';

/** The folder whose `node` is Node.js 22: to put first on PATH. Installs it on first use. */
export async function node22Bin(): Promise<string> {
  const bin = await registryNodeBin('22');
  const { stdout } = await run(join(bin, 'node'), ['--version']);
  if (!stdout.startsWith('v22.')) throw new Error(`node@22 installed ${stdout.trim()}`);
  return bin;
}
