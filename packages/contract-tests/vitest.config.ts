import { workspaceTests } from '../../vitest.shared.ts';

export default workspaceTests({
  name: '@aggregation/contract-tests',
  // Most tests start processes (the command, Prism, Respect): on a busy machine that takes a while.
  timeoutMs: 300_000,
  // Low on purpose: most of the runner runs in scripts/test-stores.ts (the test script's second step), which is not measured.
  coverageFloor: { statements: 8, branches: 6, functions: 10, lines: 9 },
});
