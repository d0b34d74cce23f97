// Generation is skipped when nothing it depends on changed: a stamp file keeps the hash of its inputs. A generated
// client is also kept in the tools cache under that hash, so that a clean checkout (or a copy without build outputs)
// copies it back instead of running the generator again on the same inputs.
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { basename, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { clientsDir, repoRoot, toolsCacheDir } from './paths.ts';

/**
 * What a list of files holds: each one's path and its contents, and the `extra` values given (the version of the tool
 * that makes something of the files). A path under `root` is taken relative to it, so that another checkout, or the
 * same files in another folder, hash the same; a path outside it (a tool's jar in the user's Maven repository) is
 * taken whole, since relative to a checkout it would change with the checkout's depth.
 */
export function hashFiles(files: readonly string[], { root = repoRoot, extra = [] }: { root?: string; extra?: readonly string[] } = {}): string {
  const hash = createHash('sha256');
  for (const value of extra) hash.update(value).update('\0');
  for (const file of files) hash.update(pathUnder(root, file)).update('\0').update(readFileSync(file)).update('\0');
  return hash.digest('hex');
}

/** `file` relative to `root` when it is inside it, else its absolute path. */
function pathUnder(root: string, file: string): string {
  const inside = relative(root, file);
  return inside === '..' || inside.startsWith(`..${sep}`) || isAbsolute(inside) ? resolve(file) : inside;
}

/** The file that keeps the hash of what `dir` was made from. */
export const stampFile = (dir: string) => join(dir, '.generated-from');

export function isUpToDate(dir: string, hash: string): boolean {
  return existsSync(stampFile(dir)) && readFileSync(stampFile(dir), 'utf8').trim() === hash;
}

export function markUpToDate(dir: string, hash: string): void {
  writeFileSync(stampFile(dir), `${hash}\n`);
}

/** Where generated clients are kept between checkouts: one folder per output and hash of its inputs. */
export const keptClientsDir = (cache = toolsCacheDir()) => join(cache, 'generated');
/** A kept copy's name: the output (its path under clients/, else its folder's name), a dot, the hash. */
const outputName = (dir: string) => (dir.startsWith(`${clientsDir}${sep}`) ? relative(clientsDir, dir).replaceAll(sep, '+') : basename(dir));
const keptName = (dir: string, hash: string) => `${outputName(dir)}.${hash}`;

/**
 * Up to date, or made so from the copy kept for the same hash: what it holds replaces the same names in `dir`, the stamp
 * last. False when there is none (or it went while being copied, replaced by another run): `dir` is to be generated.
 */
export function isUpToDateOrKept(dir: string, hash: string, cache = toolsCacheDir()): boolean {
  if (isUpToDate(dir, hash)) return true;
  const kept = join(keptClientsDir(cache), keptName(dir, hash));
  if (!existsSync(stampFile(kept))) return false;
  const stamp = basename(stampFile(kept));
  try {
    mkdirSync(dir, { recursive: true });
    rmSync(stampFile(dir), { force: true });
    for (const entry of [...readdirSync(kept).filter((name) => name !== stamp), stamp]) {
      rmSync(join(dir, entry), { recursive: true, force: true });
      cpSync(join(kept, entry), join(dir, entry), { recursive: true });
    }
  } catch {
    rmSync(stampFile(dir), { force: true });
    return false;
  }
  return isUpToDate(dir, hash);
}

/**
 * Marks `dir` up to date and keeps a copy of it (or of the `entries` named, when other outputs share the folder) for its
 * hash, in place of the copies kept for other hashes of the same output. Written beside and renamed, so that a reader
 * never finds a copy half made.
 */
export function markUpToDateAndKeep(dir: string, hash: string, entries?: readonly string[], cache = toolsCacheDir()): void {
  markUpToDate(dir, hash);
  const root = keptClientsDir(cache);
  mkdirSync(root, { recursive: true });
  const name = keptName(dir, hash);
  const partial = join(root, `.${name}.${process.pid}`);
  rmSync(partial, { recursive: true, force: true });
  for (const entry of [...(entries ?? readdirSync(dir)), basename(stampFile(dir))]) {
    cpSync(join(dir, entry), join(partial, entry), { recursive: true });
  }
  for (const entry of readdirSync(root)) {
    if (entry.startsWith(`${outputName(dir)}.`) && entry !== name) rmSync(join(root, entry), { recursive: true, force: true });
  }
  try {
    renameSync(partial, join(root, name));
  } catch {
    // Another run kept the same copy first.
    rmSync(partial, { recursive: true, force: true });
  }
}
