import { workspaceTests } from '../../vitest.shared.ts';

export default workspaceTests({
  name: '@aggregation/server',
  timeoutMs: 120_000,
  coverageFloor: { statements: 92, branches: 84, functions: 94, lines: 94 },
});
