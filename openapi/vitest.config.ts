import { workspaceTests } from '../vitest.shared.ts';

export default workspaceTests({
  name: '@aggregation/openapi',
  // The scripts are the build's and the lint's entry points, run by those tasks rather than by the tests.
  coverageOf: ['src/**', 'lint/**'],
  coverageFloor: { statements: 39, branches: 25, functions: 56, lines: 44 },
});
