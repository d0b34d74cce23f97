import { workspaceTests } from '../../vitest.shared.ts';

export default workspaceTests({
  name: '@aggregation/release',
  // Each consumer test installs, builds or type-checks a project of its own: most of a minute alone, several on a
  // busy 2-core machine. A hang still fails, after this long.
  timeoutMs: 300_000,
  coverageFloor: { statements: 64, branches: 50, functions: 92, lines: 63 },
});
