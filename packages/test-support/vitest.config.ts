import { workspaceTests } from '../../vitest.shared.ts';

export default workspaceTests({
  name: '@aggregation/test-support',
  coverageFloor: { statements: 77, branches: 62, functions: 33, lines: 83 },
});
