// The one vitest setup of every workspace. Each workspace's vitest.config.ts calls `workspaceTests` with what is
// its own (name, coverage floor); the root vitest.config.ts lists them as projects, and each workspace's
// `npm test` runs its own, so that turbo caches the workspaces one by one.
import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

/**
 * The one limit on a test or a hook, in every workspace: a guard against a hang, never a wait. Tests wait on
 * readiness (a line printed, a port open, an event arrived), so the only limit is one no loaded machine reaches:
 * CI and other work share 2 cores, and at a load of 20-40 a check that takes seconds alone can take many minutes.
 */
export const HANG_GUARD_MS = 20 * 60_000;

export interface WorkspaceTests {
  /** The workspace's package name, which is also the project's (`vitest --project <name>`). */
  name: string;
  /** What coverage is measured over, relative to the workspace (default: `src/**`). */
  coverageOf?: string[];
  /**
   * The floor under CI=true, in percent: what the suite measured when it was set, rounded down to a whole percent
   * (a point lower where runs vary by a function or two, as the server and the fault suite do).
   */
  coverageFloor: { statements: number; branches: number; functions: number; lines: number };
  /** Tests of a `concurrent` describe that run at once (vitest's default is 5). */
  maxConcurrency?: number;
  /**
   * Test files run at once, at the least (vitest's default is one fewer than the cores: one file at a time on 2). For a
   * workspace of few, long files, whose task often ends `npm test` alone, when one file at a time would leave a core idle.
   */
  minWorkers?: number;
}

export function workspaceTests(options: WorkspaceTests) {
  return defineConfig({
    test: {
      name: options.name,
      include: ['test/**/*.test.ts'],
      // A process per test file: tests start servers, set globals and leave handles behind.
      pool: 'forks',
      isolate: true,
      testTimeout: HANG_GUARD_MS,
      hookTimeout: HANG_GUARD_MS,
      // Spies (`vi.spyOn`) are undone after each test, so that no test sees another one's.
      restoreMocks: true,
      ...(options.maxConcurrency ? { maxConcurrency: options.maxConcurrency } : {}),
      ...(options.minWorkers ? { maxWorkers: Math.max(options.minWorkers, availableParallelism() - 1) } : {}),
      coverage: {
        provider: 'v8',
        // Measured and printed under CI=true (or with --coverage); a local run stays fast.
        enabled: process.env.CI === 'true',
        include: options.coverageOf ?? ['src/**'],
        // vitest claims a reports directory with a lock file in the system's temporary directory, named by the
        // directory's path and holding vitest's process id. A run that does not end cleanly leaves its lock behind,
        // and once that id belongs to another live process, every later run at the same path fails. A directory of
        // this run's own cannot be claimed by another: a leftover lock with the same id is taken as this run's.
        reportsDirectory: `coverage/${process.pid}`,
        reporter: ['text-summary'],
        thresholds: options.coverageFloor,
      },
    },
  });
}
