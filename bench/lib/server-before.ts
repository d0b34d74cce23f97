// `--server-before=<dir or git revision>`: another version of the server package, measured beside
// the current one (reads, history, writes) to show a change's effect in one run, under the same load.
// A revision is exported from git into the run's scratch folder, next to a link to node_modules so
// that its imports resolve as the working tree's do.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, symlinkSync } from 'node:fs';
import { join, resolve } from 'node:path';

export interface ServerBefore {
  /** Absolute path of its src/index.ts. */
  entry: string;
  /** How results.md names it. */
  label: string;
}

export function prepareServerBefore(value: string, root: string, workdir: string): ServerBefore {
  const dir = resolve(value);
  if (existsSync(join(dir, 'src/index.ts'))) return { entry: join(dir, 'src/index.ts'), label: `the copy in ${dir}` };
  const rev = spawnSync('git', ['rev-parse', '--short', '--verify', `${value}^{commit}`], { cwd: root, encoding: 'utf8' });
  if (rev.status !== 0) throw new Error(`--server-before: ${value} is neither a folder with src/index.ts nor a git revision`);
  const target = join(workdir, 'server-before');
  mkdirSync(target, { recursive: true });
  const archive = spawnSync('sh', ['-c', `git archive ${rev.stdout.trim()} packages/server | tar -x -C "${target}"`], { cwd: root, encoding: 'utf8' });
  if (archive.status !== 0) throw new Error(`--server-before: git archive failed: ${archive.stderr}`);
  symlinkSync(join(root, 'node_modules'), join(target, 'node_modules'));
  return { entry: join(target, 'packages/server/src/index.ts'), label: `packages/server at commit ${rev.stdout.trim()}` };
}
