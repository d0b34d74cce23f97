import { workspaceTests } from '../../vitest.shared.ts';

export default workspaceTests({
  name: '@aggregation/mcp',
  coverageFloor: { statements: 0, branches: 0, functions: 0, lines: 0 },
});
