import { workspaceTests } from '../../vitest.shared.ts';

export default workspaceTests({
  name: '@aggregation/fault-tests',
  oneFileAtATime: true,
  coverageFloor: { statements: 70, branches: 40, functions: 79, lines: 76 },
});
