import { mergeConfig } from 'vitest/config';
import { workspaceTests } from '../../vitest.shared.ts';

export default mergeConfig(
  workspaceTests({
    name: '@aggregation/fault-tests',
    oneFileAtATime: true,
    coverageFloor: { statements: 70, branches: 40, functions: 79, lines: 76 },
  }),
  // One PostgreSQL cluster for the run, not one per file (the outage and crash files start their own).
  { test: { globalSetup: ['../server/test/helpers/postgres-global.ts'] } },
);
