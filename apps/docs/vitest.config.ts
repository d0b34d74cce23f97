import { workspaceTests } from '../../vitest.shared.ts';

export default workspaceTests({
  name: '@aggregation/docs',
  timeoutMs: 180_000,
  coverageFloor: { statements: 68, branches: 66, functions: 62, lines: 70 },
});
