// oasdiff (https://github.com/oasdiff/oasdiff), pinned, built from the Go module proxy into a cache folder on first
// use: `go install github.com/oasdiff/oasdiff@<version>` with GOBIN under node_modules/.cache. Needs Go.
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { which } from '@aggregation/test-support';

const run = promisify(execFile);

export const OASDIFF_VERSION = 'v1.36.0';
const repoRoot = join(import.meta.dirname, '..', '..');
const cacheDir = join(repoRoot, 'node_modules', '.cache', 'oasdiff', OASDIFF_VERSION);
export const oasdiffPath = join(cacheDir, 'oasdiff');

/** Go on PATH (CI puts /usr/local/go/bin there), or undefined. */
function findGo(): string | undefined {
  return which('go');
}

/** Why oasdiff cannot be had here, or false when it is installed or can be. */
export function oasdiffMissing(): string | false {
  return existsSync(oasdiffPath) || findGo() ? false : `Go is not installed, and oasdiff ${OASDIFF_VERSION} is built with it`;
}

/** The pinned oasdiff binary, installed first if needed. */
export async function ensureOasdiff(): Promise<string> {
  if (existsSync(oasdiffPath)) return oasdiffPath;
  const go = findGo();
  if (!go) throw new Error(oasdiffMissing() || 'no go');
  mkdirSync(cacheDir, { recursive: true });
  await run(go, ['install', `github.com/oasdiff/oasdiff@${OASDIFF_VERSION}`], {
    env: { ...process.env, GOBIN: cacheDir },
    maxBuffer: 16 * 1024 * 1024,
  });
  return oasdiffPath;
}

/** One change oasdiff found; `level` 3 is breaking (ERR), 2 potentially breaking (WARN), 1 informational. */
export type OasdiffFinding = {
  id: string;
  text: string;
  level: number;
  operation?: string;
  path?: string;
  section?: string;
};

export const BREAKING = 3;

/** `oasdiff breaking base revision`: what in revision breaks a client written against base. */
export async function breakingChanges(base: string, revision: string): Promise<OasdiffFinding[]> {
  const oasdiff = await ensureOasdiff();
  const { stdout } = await run(oasdiff, ['breaking', base, revision, '--format', 'json'], { maxBuffer: 64 * 1024 * 1024 });
  return JSON.parse(stdout || '[]') as OasdiffFinding[];
}
