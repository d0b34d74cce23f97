import { workspaceTests } from '../../vitest.shared.ts';

export default workspaceTests({
  name: '@aggregation/cli',
  timeoutMs: 60_000,
  coverageFloor: { statements: 0, branches: 0, functions: 0, lines: 0 },
});
