import { workspaceTests } from '../../vitest.shared.ts';

export default workspaceTests({
  name: '@aggregation/polyglot',
  maxConcurrency: 2,
  // The generators and smoke programs run in child processes, which V8 coverage of the test process does not see.
  coverageFloor: { statements: 61, branches: 46, functions: 68, lines: 64 },
});
