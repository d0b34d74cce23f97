// `npx vitest` at the root runs every workspace's tests; `npm test` runs them workspace by workspace through turbo.
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: ['openapi/vitest.config.ts', 'packages/*/vitest.config.ts', 'apps/*/vitest.config.ts'],
  },
});
