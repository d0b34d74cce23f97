import { workspaceTests } from '../../vitest.shared.ts';

export default workspaceTests({
  name: '@aggregation/docs',
  timeoutMs: 180_000,
  coverageFloor: { statements: 66.93, branches: 65.41, functions: 61.9, lines: 68.09 },
});
