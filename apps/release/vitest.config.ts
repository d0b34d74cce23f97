import { workspaceTests } from '../../vitest.shared.ts';

export default workspaceTests({
  name: '@aggregation/release',
  coverageFloor: { statements: 64, branches: 50, functions: 92, lines: 63 },
});
