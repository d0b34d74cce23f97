import { workspaceTests } from '../../vitest.shared.ts';

export default workspaceTests({
  name: '@aggregation/connect',
  // The browser code (the script, the frame, the loader and the hook) runs in Chromium, where V8's coverage of this
  // process does not reach; coverage is measured on what runs here.
  coverageOf: ['src/serve.ts', 'src/assets.ts', 'src/protocol.ts'],
  coverageFloor: { statements: 98, branches: 97, functions: 100, lines: 98 },
});
