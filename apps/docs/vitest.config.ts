import { workspaceTests } from '../../vitest.shared.ts';

export default workspaceTests({
  name: '@aggregation/docs',
  timeoutMs: 180_000,
  coverageFloor: { statements: 53, branches: 49, functions: 48, lines: 54 },
});
