// The published npm packages: every workspace that is not private. One list for packing, checking and the consumer test.
import { glob, readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';

export const repoRoot = join(import.meta.dirname, '..', '..', '..');
/** Where `npm run release:pack` writes every artifact (gitignored). */
export const releaseDir = join(repoRoot, 'dist', 'release');
/** The Python package's wheel and sdist. */
export const pythonReleaseDir = join(releaseDir, 'python');
/** The Go module, as a folder. */
export const goReleaseDir = join(releaseDir, 'go');

export type PublishedPackage = { name: string; version: string; dir: string };

type Manifest = { name: string; version: string; private?: boolean };
const readManifest = async (dir: string) => JSON.parse(await readFile(join(dir, 'package.json'), 'utf8')) as Manifest;

/**
 * The workspaces as npm finds them: each folder that a pattern of the root manifest's `workspaces` matches and that
 * holds a package.json. Read here rather than asked of `npm query`, which loads the whole dependency tree (a second
 * of CPU) for it, in each process that asks. npm also takes negated patterns (`!dir`), which drop what the others
 * matched; a plain glob would read them as patterns of their own, so they are refused rather than misread.
 */
export async function workspaceDirs(root = repoRoot): Promise<string[]> {
  const { workspaces } = JSON.parse(await readFile(join(root, 'package.json'), 'utf8')) as { workspaces: string[] };
  const negated = workspaces.filter((pattern) => pattern.startsWith('!'));
  if (negated.length > 0) throw new Error(`workspace patterns ${negated.join(', ')} are negated: list the workspaces without them`);
  const dirs: string[] = [];
  for await (const manifest of glob(
    workspaces.map((pattern) => `${pattern}/package.json`),
    { cwd: root },
  )) {
    dirs.push(join(root, dirname(manifest)));
  }
  return dirs.sort();
}

export async function publishedPackages(): Promise<PublishedPackage[]> {
  // Every workspace, so a new one is packed as soon as it stops being private.
  const published: PublishedPackage[] = [];
  for (const dir of await workspaceDirs()) {
    const manifest = await readManifest(dir);
    if (!manifest.private) published.push({ name: manifest.name, version: manifest.version, dir });
  }
  return published.sort((a, b) => a.name.localeCompare(b.name));
}

/** The published packages `names` need at run time, themselves included, from their manifests' dependencies. */
export function withDependencies(packages: PublishedPackage[], names: string[]): Promise<PublishedPackage[]> {
  const byName = new Map(packages.map((entry) => [entry.name, entry]));
  const needed = new Set<string>();
  const visit = async (name: string): Promise<void> => {
    const entry = byName.get(name);
    if (!entry) throw new Error(`${name} is not a published package`);
    if (needed.has(name)) return;
    needed.add(name);
    const manifest = JSON.parse(await readFile(join(entry.dir, 'package.json'), 'utf8')) as { dependencies?: Record<string, string> };
    for (const dependency of Object.keys(manifest.dependencies ?? {})) if (byName.has(dependency)) await visit(dependency);
  };
  return Promise.all(names.map(visit)).then(() => packages.filter((entry) => needed.has(entry.name)));
}

/** The file `npm pack` names a package's tarball. */
export const tarballName = (entry: PublishedPackage) => `${entry.name.replace(/^@/, '').replace('/', '-')}-${entry.version}.tgz`;
