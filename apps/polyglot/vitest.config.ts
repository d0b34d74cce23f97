import { workspaceTests } from '../../vitest.shared.ts';

export default workspaceTests({
  name: '@aggregation/polyglot',
  maxConcurrency: 2,
  // The generators and smoke programs run in child processes, which V8 coverage of the test process does not see.
  // The generator matrix's runner (matrix.ts, generate-matrix.ts) runs in `npm run test:generators`, not here: its
  // definitions are checked by test/matrix.test.ts, its runs by the matrix itself.
  coverageOf: ['src/**', '!src/matrix.ts', '!src/generate-matrix.ts'],
  coverageFloor: { statements: 66, branches: 58, functions: 58, lines: 69 },
});
