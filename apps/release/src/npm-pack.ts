// Packing one npm package as `npm publish` would, and linting the tarball as its users would meet it.
import { execFile } from 'node:child_process';
import { copyFile, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { publint } from 'publint';
import { formatMessage } from 'publint/utils';
import { repoRoot } from './packages.ts';

const run = promisify(execFile);
const bin = (name: string) => join(repoRoot, 'node_modules', '.bin', name);

/** `npm pack` of the package in `dir` into `destination`, with the repository's LICENSE beside its README. */
export async function packPackage(dir: string, destination: string): Promise<string> {
  const license = join(dir, 'LICENSE');
  await copyFile(join(repoRoot, 'LICENSE'), license);
  try {
    const { stdout } = await run('npm', ['pack', '--json', '--pack-destination', destination], { cwd: dir });
    const [packed] = JSON.parse(stdout) as { filename: string }[];
    if (!packed) throw new Error(`npm pack printed no tarball for ${dir}`);
    return join(destination, packed.filename);
  } finally {
    await rm(license, { force: true });
  }
}

/** Every problem publint (strict, suggestions included) and attw report for a tarball; empty when there is none. */
export async function lintTarball(tarball: string): Promise<string[]> {
  const problems: string[] = [];
  const { messages, pkg } = await publint({ pack: { tarball: new Uint8Array(await readFile(tarball)).buffer }, strict: true, level: 'suggestion' });
  for (const message of messages) problems.push(`publint ${message.type}: ${formatMessage(message, pkg) ?? message.code}`);
  // ESM only by design: `require()` of it works where Node.js loads ES modules synchronously (20.19, 22.12 and newer),
  // so attw's profile for ESM-only packages, which still checks every ESM and bundler resolution.
  try {
    await run(bin('attw'), [tarball, '--profile', 'esm-only', '--format', 'ascii', '--no-color']);
  } catch (error) {
    const { stdout = '', stderr = '' } = error as { stdout?: string; stderr?: string };
    problems.push(`attw:\n${stdout}${stderr}`);
  }
  return problems;
}
