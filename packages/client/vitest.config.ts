import { mergeConfig } from 'vitest/config';
import { workspaceTests } from '../../vitest.shared.ts';

export default mergeConfig(
  workspaceTests({
    name: '@aggregation/client',
    coverageFloor: { statements: 94, branches: 90, functions: 93, lines: 96 },
  }),
  // The test files share their worker's modules (the client, the server they start in-process) instead of importing
  // them again each: every file starts and stops its own servers, and puts back what it sets in process.env.
  { test: { isolate: false } },
);
