import { workspaceTests } from '../../vitest.shared.ts';

export default workspaceTests({
  name: '@aggregation/mock',
  timeoutMs: 60_000,
  coverageFloor: { statements: 65.67, branches: 54.28, functions: 75, lines: 71.42 },
});
