import { workspaceTests } from '../../vitest.shared.ts';

export default workspaceTests({
  name: '@aggregation/mock',
  // A limit for a test that hangs: Prism's start is waited for until it listens or exits, however loaded the machine.
  timeoutMs: 300_000,
  coverageFloor: { statements: 65, branches: 54, functions: 75, lines: 72 },
});
