// Where a program is on PATH: the tools a test or a build step needs (go, python3, java, the machine's own node).
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';

/** The absolute path of the first executable `name` on PATH in a folder `accept` takes, or undefined. */
export function which(name: string, accept: (dir: string) => boolean = () => true, env: NodeJS.ProcessEnv = process.env): string | undefined {
  for (const dir of (env.PATH ?? '').split(delimiter)) {
    if (!dir || !accept(dir)) continue;
    const candidate = join(dir, name);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  return undefined;
}

/**
 * The machine's own Node.js: the first `node` on PATH outside node_modules, which npm scripts put first with the
 * project's pinned Node.js 24. What a user runs a package or an example with.
 */
export function machineNode(env: NodeJS.ProcessEnv = process.env): string | undefined {
  return which('node', (dir) => !dir.includes('node_modules'), env);
}
