import { mergeConfig } from 'vitest/config';
import { workspaceTests } from '../vitest.shared.ts';

export default mergeConfig(
  workspaceTests({
    name: '@aggregation/openapi',
    // The scripts are the build's and the lint's entry points, run by those tasks rather than by the tests.
    coverageOf: ['src/**', 'lint/**'],
    coverageFloor: { statements: 39, branches: 25, functions: 56, lines: 44 },
  }),
  // The test files only read the bundles and run checks on documents of their own: they share their worker's modules
  // (Spectral, Ajv, the parsed bundles) instead of importing and parsing them again each.
  { test: { isolate: false } },
);
