// `npm run test:readme`: the READMEs followed on a fresh clone (flows/), apart from `npm test`: it clones, runs
// npm ci and npm start, which takes minutes. CI runs it after npm test.
import { defineConfig } from 'vitest/config';
import { HANG_GUARD_MS } from '../../vitest.shared.ts';

export default defineConfig({
  test: {
    name: '@aggregation/readme-examples#flows',
    include: ['flows/**/*.test.ts'],
    pool: 'forks',
    // One README after another, on the one server the setup started.
    fileParallelism: false,
    testTimeout: HANG_GUARD_MS,
    hookTimeout: HANG_GUARD_MS,
  },
});
