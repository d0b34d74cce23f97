import { mergeConfig } from 'vitest/config';
import { workspaceTests } from '../../vitest.shared.ts';

export default mergeConfig(
  workspaceTests({
    name: '@aggregation/fault-tests',
    oneFileAtATime: true,
    coverageFloor: { statements: 70, branches: 40, functions: 79, lines: 76 },
  }),
  {
    test: {
      // One PostgreSQL cluster for the run, not one per file (the outage and crash files start their own).
      globalSetup: ['../server/test/helpers/postgres-global.ts'],
      // The files run one after another in one process that imports the server's helpers once, not once per file:
      // each starts its servers and databases and stops them, and no file reads state another leaves (the tally of
      // what was checked is zeroed after each file by the setup file).
      isolate: false,
      setupFiles: ['src/each-file.ts'],
    },
  },
);
