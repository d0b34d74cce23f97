// Packing npm packages as `npm publish` would, and linting each tarball as its users would meet it.
import { execFile } from 'node:child_process';
import { copyFile, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { publint } from 'publint';
import { formatMessage } from 'publint/utils';
import { repoRoot } from './packages.ts';

const run = promisify(execFile);

/** A packed package: its name and version as npm read them, and its tarball. */
export type PackedTarball = { name: string; version: string; tarball: string };

/**
 * `npm pack` of the packages in `dirs` into `destination`, each with the repository's LICENSE beside its README. One
 * npm process packs them all: starting npm costs about a second of CPU, packing a package a fraction of that.
 */
export async function packPackages(dirs: readonly string[], destination: string): Promise<PackedTarball[]> {
  const licenses = dirs.map((dir) => join(dir, 'LICENSE'));
  await Promise.all(licenses.map((license) => copyFile(join(repoRoot, 'LICENSE'), license)));
  try {
    // Absolute paths: npm reads a relative folder without `./` as a GitHub repository.
    const { stdout } = await run('npm', ['pack', '--json', '--pack-destination', destination, ...dirs], {
      cwd: repoRoot,
      maxBuffer: 64 * 1024 * 1024,
    });
    const packed = JSON.parse(stdout) as { name: string; version: string; filename: string }[];
    if (packed.length !== dirs.length) throw new Error(`npm pack printed ${packed.length} tarballs for ${dirs.length} packages`);
    return packed.map((entry) => ({ name: entry.name, version: entry.version, tarball: join(destination, entry.filename) }));
  } finally {
    await Promise.all(licenses.map((license) => rm(license, { force: true })));
  }
}

/**
 * Every problem publint (strict, suggestions included) and attw report for each tarball, in order; empty where there is
 * none. attw checks them all in one process (src/attw.ts).
 */
export async function lintTarballs(tarballs: readonly string[]): Promise<string[][]> {
  const { stdout } = await run(process.execPath, [join(import.meta.dirname, 'attw.ts'), ...tarballs], { maxBuffer: 64 * 1024 * 1024 });
  const attw = JSON.parse(stdout) as (string | null)[];
  return Promise.all(
    tarballs.map(async (tarball, index) => {
      const problems: string[] = [];
      const { messages, pkg } = await publint({ pack: { tarball: new Uint8Array(await readFile(tarball)).buffer }, strict: true, level: 'suggestion' });
      for (const message of messages) problems.push(`publint ${message.type}: ${formatMessage(message, pkg) ?? message.code}`);
      const report = attw[index];
      if (report) problems.push(`attw:\n${report}`);
      return problems;
    }),
  );
}
