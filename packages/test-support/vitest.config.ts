import { workspaceTests } from '../../vitest.shared.ts';

export default workspaceTests({
  name: '@aggregation/test-support',
  timeoutMs: 10_000,
  coverageFloor: { statements: 100, branches: 100, functions: 100, lines: 100 },
});
