import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Where `npm run build` writes the collections and environments. */
export const distDir = join(dirname(fileURLToPath(import.meta.url)), '..', 'dist');
