import { workspaceTests } from '../../vitest.shared.ts';

export default workspaceTests({
  name: '@aggregation/server',
  coverageFloor: { statements: 92, branches: 84, functions: 94, lines: 94 },
});
