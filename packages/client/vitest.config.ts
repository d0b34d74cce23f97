import { workspaceTests } from '../../vitest.shared.ts';

export default workspaceTests({
  name: '@aggregation/client',
  timeoutMs: 60_000,
  coverageFloor: { statements: 95.39, branches: 91.12, functions: 93.91, lines: 97.33 },
});
