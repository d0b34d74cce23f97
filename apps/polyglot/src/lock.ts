// One run at a time on a shared directory (a build, a virtualenv), across processes.
import { mkdirSync, rmSync, statSync } from 'node:fs';

/** Runs `body` holding a lock directory (mkdir is atomic); a lock older than 15 minutes was left by a killed run. */
export async function withLock<T>(lock: string, body: () => Promise<T>): Promise<T> {
  for (;;) {
    try {
      mkdirSync(lock);
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const age = Date.now() - (statSync(lock, { throwIfNoEntry: false })?.mtimeMs ?? Date.now());
      if (age > 15 * 60_000) rmSync(lock, { recursive: true, force: true });
      else await new Promise((resolve) => setTimeout(resolve, 500));
    }
  }
  try {
    return await body();
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}
