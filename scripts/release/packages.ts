// The published npm packages: every workspace that is not private. One list for packing, checking and the consumer test.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';

export const repoRoot = join(import.meta.dirname, '..', '..');
/** Where `npm run release:pack` writes every artifact (gitignored). */
export const releaseDir = join(repoRoot, 'dist', 'release');

export type PublishedPackage = { name: string; version: string; dir: string };

type Manifest = { name: string; version: string; private?: boolean; workspaces?: string[] };
const readManifest = async (dir: string) => JSON.parse(await readFile(join(dir, 'package.json'), 'utf8')) as Manifest;

export async function publishedPackages(): Promise<PublishedPackage[]> {
  const { execFile } = await import('node:child_process');
  const { promisify } = await import('node:util');
  // npm's own view of the workspaces, so a new one is packed as soon as it stops being private.
  const { stdout } = await promisify(execFile)('npm', ['query', '.workspace', '--json'], { cwd: repoRoot, maxBuffer: 32 * 1024 * 1024 });
  const workspaces = JSON.parse(stdout) as { name: string; version: string; private?: boolean; path: string }[];
  const published: PublishedPackage[] = [];
  for (const workspace of workspaces) {
    const manifest = await readManifest(workspace.path);
    if (!manifest.private) published.push({ name: manifest.name, version: manifest.version, dir: workspace.path });
  }
  return published.sort((a, b) => a.name.localeCompare(b.name));
}
