import { workspaceTests } from '../../vitest.shared.ts';

export default workspaceTests({
  name: '@aggregation/docs',
  coverageFloor: { statements: 67, branches: 66, functions: 61, lines: 68 },
});
