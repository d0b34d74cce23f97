import { workspaceTests } from '../../vitest.shared.ts';

export default workspaceTests({
  name: '@aggregation/contract-tests',
  timeoutMs: 60_000,
  // Low on purpose: most of the runner runs in `node src/cli.ts` (the test script's second step), which is not measured.
  coverageFloor: { statements: 8, branches: 6, functions: 10, lines: 9 },
});
