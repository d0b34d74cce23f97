import { workspaceTests } from '../../vitest.shared.ts';

export default workspaceTests({
  name: '@aggregation/mock',
  coverageFloor: { statements: 65, branches: 54, functions: 75, lines: 72 },
});
