import { mergeConfig } from 'vitest/config';
import { workspaceTests } from '../../vitest.shared.ts';

export default mergeConfig(
  workspaceTests({
    name: '@aggregation/release',
    // Four files, each minutes of installs and programs on a loaded machine, all at once: this task is the longest path
    // of `npm test`, and what runs in parallel gets the larger share of busy cores. The contract tests' empty project,
    // the longest file, starts while the shared project installs.
    minWorkers: 4,
    coverageFloor: { statements: 94, branches: 78, functions: 100, lines: 98 },
  }),
  {
    test: {
      // The packed packages, installed once (in the background) for the files that use them.
      globalSetup: ['test/support/installed.ts'],
      // Programs the tests run as processes, not modules they import, so V8 sees nothing of them here: src/pack.ts
      // runs before the tests (its failure fails the task), src/attw.ts under lintTarballs.
      coverage: { exclude: ['src/pack.ts', 'src/attw.ts'] },
    },
  },
);
