import { workspaceTests } from '../../vitest.shared.ts';

export default workspaceTests({
  name: '@aggregation/server',
  timeoutMs: 120_000,
  coverageFloor: { statements: 92.75, branches: 83.33, functions: 94.28, lines: 95.46 },
});
