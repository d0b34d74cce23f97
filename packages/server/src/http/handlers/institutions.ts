// The institutions the service connects to and their products (no authentication).
import { institutions } from '../../domain/institutions.ts';
import { answer } from '../answer.ts';
import type { ApiHandlers } from './types.ts';

export const institutionHandlers = {
  listInstitutions: {
    handle: (c, runtime) =>
      answer.json(
        c,
        runtime,
        'listInstitutions',
        200,
        institutions.map(({ id, name, products }) => ({ id, name, products: [...products] })),
      ),
  },
} satisfies Partial<ApiHandlers>;
