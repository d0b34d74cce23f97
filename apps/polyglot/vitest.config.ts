import { workspaceTests } from '../../vitest.shared.ts';

export default workspaceTests({
  name: '@aggregation/polyglot',
  timeoutMs: 300_000,
  maxConcurrency: 2,
  coverageFloor: { statements: 0, branches: 0, functions: 0, lines: 0 },
});
