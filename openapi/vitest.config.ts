import { workspaceTests } from '../vitest.shared.ts';

export default workspaceTests({
  name: '@aggregation/openapi',
  timeoutMs: 60_000,
  coverageOf: ['src/**', 'scripts/**', 'lint/**'],
  coverageFloor: { statements: 0, branches: 0, functions: 0, lines: 0 },
});
