import { workspaceTests } from '../../vitest.shared.ts';

export default workspaceTests({
  name: '@aggregation/fault-tests',
  timeoutMs: 60_000,
  oneFileAtATime: true,
  coverageFloor: { statements: 0, branches: 0, functions: 0, lines: 0 },
});
