// One run at a time on a shared directory (a virtualenv, a build), across processes.
import { mkdirSync, rmSync, statSync, utimesSync } from 'node:fs';

/** A lock not touched for this long was left by a killed run: its holder touches it every minute. */
const staleAfterMs = 15 * 60_000;

/** Runs `body` holding a lock directory (mkdir is atomic); a lock untouched for 15 minutes is taken over. */
export async function withLock<T>(lock: string, body: () => Promise<T>): Promise<T> {
  for (;;) {
    try {
      mkdirSync(lock);
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const age = Date.now() - (statSync(lock, { throwIfNoEntry: false })?.mtimeMs ?? Date.now());
      if (age > staleAfterMs) rmSync(lock, { recursive: true, force: true });
      else await new Promise((resolve) => setTimeout(resolve, 500));
    }
  }
  // A long hold (a slow install on a busy machine) is not mistaken for a killed one.
  const touch = setInterval(() => {
    const now = new Date();
    utimesSync(lock, now, now);
  }, 60_000).unref();
  try {
    return await body();
  } finally {
    clearInterval(touch);
    rmSync(lock, { recursive: true, force: true });
  }
}
