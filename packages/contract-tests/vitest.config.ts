import { workspaceTests } from '../../vitest.shared.ts';

export default workspaceTests({
  name: '@aggregation/contract-tests',
  // Low on purpose: most of the runner runs in scripts/test-stores.ts (the test script's second step), which is not measured.
  coverageFloor: { statements: 8, branches: 6, functions: 10, lines: 9 },
});
