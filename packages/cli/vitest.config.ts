import { workspaceTests } from '../../vitest.shared.ts';

export default workspaceTests({
  name: '@aggregation/cli',
  // A limit for a test that hangs, not a wait: every wait in the tests is on what a process prints.
  timeoutMs: 300_000,
  coverageFloor: { statements: 0, branches: 0, functions: 0, lines: 0 },
});
