import { workspaceTests } from '../../vitest.shared.ts';

export default workspaceTests({
  name: '@aggregation/release',
  timeoutMs: 60_000,
  coverageFloor: { statements: 64, branches: 50, functions: 92, lines: 63 },
});
