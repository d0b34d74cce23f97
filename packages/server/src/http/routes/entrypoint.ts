// GET /: where an SDK starts. Links to the top-level collections, with or without a token.
import type { Runtime } from '../env.ts';
import { apiJson } from '../respond.ts';
import type { Router } from '../router.ts';

export function entrypointRoutes(r: Router, runtime: Runtime): void {
  r.route('get', '/', { document: 'api', operationId: 'getEntrypoint', auth: false }, (c) => {
    const base = c.get('base');
    return apiJson(c, runtime, 'getEntrypoint', 200, {
      links: { accounts: `${base}/accounts`, institutions: `${base}/institutions` },
    });
  });
}
