import { workspaceTests } from '../../vitest.shared.ts';

export default workspaceTests({
  name: '@aggregation/connect-example',
  // The backend runs in this process (the browser test starts it); the page's script runs in Chromium.
  coverageFloor: { statements: 80, branches: 60, functions: 80, lines: 80 },
});
