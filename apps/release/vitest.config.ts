import { mergeConfig } from 'vitest/config';
import { workspaceTests } from '../../vitest.shared.ts';

export default mergeConfig(
  workspaceTests({
    name: '@aggregation/release',
    // Four files, each minutes of installs and programs on a loaded machine; the longest (the contract tests from an
    // empty project) then runs beside the others.
    minWorkers: 2,
    coverageFloor: { statements: 64, branches: 50, functions: 92, lines: 63 },
  }),
  // The packed packages, installed once for the files that use them.
  { test: { globalSetup: ['test/support/installed.ts'] } },
);
