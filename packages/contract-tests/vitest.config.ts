import { mergeConfig } from 'vitest/config';
import { workspaceTests } from '../../vitest.shared.ts';

export default mergeConfig(
  workspaceTests({
    name: '@aggregation/contract-tests',
    // Low on purpose: most of the runner runs in scripts/test-stores.ts (the test script's second step), which is not measured.
    coverageFloor: { statements: 8, branches: 6, functions: 10, lines: 9 },
  }),
  // No file reads state another leaves (each starts its own servers and directories; spies are undone after each
  // test; the one environment change, children ending with this process, holds for all): a fork runs several files
  // on modules it imported once, rather than importing them again for each file.
  { test: { isolate: false } },
);
