// Generation is skipped when nothing it depends on changed: a stamp file keeps the hash of its inputs.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export function hashFiles(files: readonly string[]): string {
  const hash = createHash('sha256');
  for (const file of files) hash.update(file).update('\0').update(readFileSync(file)).update('\0');
  return hash.digest('hex');
}

/** The file that keeps the hash of what `dir` was made from. */
export const stampFile = (dir: string) => join(dir, '.generated-from');

export function isUpToDate(dir: string, hash: string): boolean {
  return existsSync(stampFile(dir)) && readFileSync(stampFile(dir), 'utf8').trim() === hash;
}

export function markUpToDate(dir: string, hash: string): void {
  writeFileSync(stampFile(dir), `${hash}\n`);
}
