import { mergeConfig } from 'vitest/config';
import { workspaceTests } from '../../vitest.shared.ts';

export default mergeConfig(
  workspaceTests({
    name: '@aggregation/polyglot',
    maxConcurrency: 2,
    // The generators and smoke programs run in child processes, which V8 coverage of the test process does not see.
    // The generator matrix's runner (matrix.ts, generate-matrix.ts) runs in `npm run test:generators`, not here: its
    // definitions are checked by test/matrix.test.ts, its runs by the matrix itself.
    coverageOf: ['src/**', '!src/matrix.ts', '!src/generate-matrix.ts'],
    coverageFloor: { statements: 66, branches: 58, functions: 58, lines: 69 },
  }),
  // The test files start and stop their own sandbox servers and run the programs in child processes: they share their
  // worker's modules (the server, the docs, the bundles) instead of importing them again each.
  { test: { isolate: false } },
);
