// GET /: where an SDK starts. Links to the top-level collections, with or without a token.
import { answer } from '../answer.ts';
import type { ApiHandlers } from './types.ts';

export const entrypointHandlers = {
  getEntrypoint: {
    handle: (c, runtime) => {
      const base = c.get('base');
      return answer.json(c, runtime, 'getEntrypoint', 200, {
        links: { accounts: `${base}/accounts`, institutions: `${base}/institutions` },
      });
    },
  },
} satisfies Partial<ApiHandlers>;
