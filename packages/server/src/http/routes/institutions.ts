// The institutions the service connects to and their products (no authentication).
import { institutions } from '../../domain/institutions.ts';
import type { Runtime } from '../env.ts';
import { apiJson } from '../respond.ts';
import type { Router } from '../router.ts';

export function institutionRoutes(r: Router, runtime: Runtime): void {
  r.route('get', '/institutions', { document: 'api', operationId: 'listInstitutions', auth: false }, (c) =>
    apiJson(
      c,
      runtime,
      'listInstitutions',
      200,
      institutions.map(({ id, name, products }) => ({ id, name, products: [...products] })),
    ),
  );
}
