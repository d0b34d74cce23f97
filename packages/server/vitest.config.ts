import { mergeConfig } from 'vitest/config';
import { workspaceTests } from '../../vitest.shared.ts';

export default mergeConfig(
  workspaceTests({
    name: '@aggregation/server',
    coverageFloor: { statements: 92, branches: 84, functions: 94, lines: 94 },
  }),
  {
    test: {
      // One PostgreSQL cluster for the run, not one per file.
      globalSetup: ['test/helpers/postgres-global.ts'],
      // The files share no mutable module state (apps, stores and servers are made per file): a worker keeps the
      // server's modules, transformed once, from one file to the next.
      isolate: false,
    },
  },
);
