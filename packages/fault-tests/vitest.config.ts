import { mergeConfig } from 'vitest/config';
import { workspaceTests } from '../../vitest.shared.ts';

export default mergeConfig(
  workspaceTests({
    name: '@aggregation/fault-tests',
    // Two files at once: many of their seconds are waits (a stopped database, a restart, a rate window, a held
    // delivery), and each file's servers, databases and load are its own. The whole of `npm test` loads the machine
    // far more than a second file does.
    minWorkers: 2,
    coverageFloor: { statements: 70, branches: 40, functions: 79, lines: 76 },
  }),
  {
    test: {
      // One PostgreSQL cluster for the run, not one per file (the outage and crash files start their own).
      globalSetup: ['../server/test/helpers/postgres-global.ts'],
      // Each worker runs its files one after another in one process that imports the server's helpers once, not once
      // per file: each file starts its servers and databases and stops them, and no file reads state another leaves
      // (the tally of what was checked is zeroed after each file by the setup file).
      isolate: false,
      setupFiles: ['src/each-file.ts'],
    },
  },
);
