import { mergeConfig } from 'vitest/config';
import { workspaceTests } from '../../vitest.shared.ts';

export default mergeConfig(
  workspaceTests({
    name: '@aggregation/release',
    // Four files, each minutes of installs and programs on a loaded machine, all at once: this task is the longest path
    // of `npm test`, and what runs in parallel gets the larger share of busy cores. The contract tests' empty project,
    // the longest file, starts while the shared project installs.
    minWorkers: 4,
    coverageFloor: { statements: 64, branches: 50, functions: 92, lines: 63 },
  }),
  // The packed packages, installed once (in the background) for the files that use them.
  { test: { globalSetup: ['test/support/installed.ts'] } },
);
