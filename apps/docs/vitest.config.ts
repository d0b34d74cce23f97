import { mergeConfig } from 'vitest/config';
import { workspaceTests } from '../../vitest.shared.ts';

export default mergeConfig(
  workspaceTests({
    name: '@aggregation/docs',
    // The site's page renderers (build.ts and what only it calls: the index, the reference's chrome, the console, the
    // Markdown pages and llms.txt, the search index) run in `turbo run build`, a process of its own; the tests check
    // what they wrote, over HTTP and in Chromium. Coverage is measured on what the tests run in their own process.
    coverageOf: [
      'src/**',
      '!src/build.ts',
      '!src/index-page.ts',
      '!src/reference-chrome.ts',
      '!src/try-page.ts',
      '!src/agents.ts',
      '!src/fields.ts',
      '!src/search.ts',
      '!src/render.ts',
      '!src/html.ts',
    ],
    coverageFloor: { statements: 71, branches: 58, functions: 67, lines: 73 },
  }),
  // The test files read the built site and the bundles, and start what they serve themselves: they share their
  // worker's modules (the docs' renderers, the parsed bundles) instead of importing them again each.
  { test: { isolate: false } },
);
