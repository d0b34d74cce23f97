// A clean copy of the working tree for the toolchain benchmark: the tracked and untracked
// (not ignored) files and .git, but no build outputs and no turbo cache; what
// `git clean -xfd -e node_modules` leaves, without touching the tree other people work in.
// node_modules is hard-linked (fast, no extra space); nothing in a test run rewrites its files. So are the workspaces'
// own node_modules, where npm puts the versions of a dependency that differ from the root's.
import { spawnSync } from 'node:child_process';
import { copyFileSync, cpSync, existsSync, globSync, mkdirSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { linkedCopy } from '@aggregation/test-support';

export function cleanCopy(root: string): string {
  const dest = mkdtempSync(join(tmpdir(), 'aggregation-toolchain-'));
  const listed = spawnSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: root, encoding: 'utf8' });
  if (listed.status !== 0) throw new Error(`git ls-files failed: ${listed.stderr}`);
  for (const file of listed.stdout.split('\0').filter(Boolean)) {
    const from = join(root, file);
    if (!existsSync(from)) continue; // deleted in the working tree
    mkdirSync(dirname(join(dest, file)), { recursive: true });
    copyFileSync(from, join(dest, file));
  }
  cpSync(join(root, '.git'), join(dest, '.git'), { recursive: true });
  for (const modules of installedModules(root)) linkedCopy(join(root, modules), join(dest, modules));
  return dest;
}

/** The root's node_modules and each workspace's, relative to the root. */
export function installedModules(root: string): string[] {
  const { workspaces = [] } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { workspaces?: string[] };
  const nested = workspaces.flatMap((pattern) => globSync(`${pattern}/node_modules`, { cwd: root }));
  return ['node_modules', ...nested.sort()];
}
