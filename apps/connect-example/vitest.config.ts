import { workspaceTests } from '../../vitest.shared.ts';

export default workspaceTests({
  name: '@aggregation/connect-example',
  // The backend runs in this process (the tests start it); the page's script runs in Chromium, and the bin (src/main.ts)
  // in a child process of its own.
  coverageFloor: { statements: 87, branches: 77, functions: 87, lines: 90 },
});
