// A copy of a large tree of files that nothing rewrites in place (an installed node_modules): its directories are
// new and its files hard links to the originals (`cp -al`), which takes a fraction of a second where copying
// thousands of files' bytes takes seconds of CPU. A file changed in place in the copy would change in the original
// too; adding, removing or renaming files and directories in the copy leaves the original as it was.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, rmSync } from 'node:fs';

/** Copies `from` to `to` (which must not exist) with hard links; a plain copy where links cannot be made. */
export function linkedCopy(from: string, to: string): void {
  if (!existsSync(from)) return;
  if (spawnSync('cp', ['-al', from, to]).status === 0) return;
  // What cp made before it failed goes first: copying over a file it linked would rewrite the original's bytes.
  rmSync(to, { recursive: true, force: true });
  cpSync(from, to, { recursive: true, verbatimSymlinks: true });
}
