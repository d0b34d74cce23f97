import { workspaceTests } from '../../vitest.shared.ts';

export default workspaceTests({
  name: '@aggregation/client',
  coverageFloor: { statements: 94, branches: 90, functions: 93, lines: 96 },
});
