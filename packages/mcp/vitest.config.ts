import { workspaceTests } from '../../vitest.shared.ts';

export default workspaceTests({
  name: '@aggregation/mcp',
  // Most tests drive the server as hosts do, a process of its own (stdio, HTTP, the Inspector, a packed install), whose
  // coverage V8 does not report here: the floor is what the in-process tests (tools, units, guide) measure.
  coverageFloor: { statements: 51, branches: 40, functions: 49, lines: 52 },
});
