// What the package's tests share: the built widget they need, and where it is.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { skipWhenMissing } from '@aggregation/test-support';
import { widgetDir } from '../src/assets.ts';

/** Skips (fails under CI=true) when dist/widget/ has not been built. */
export function skipUnlessBuilt(): string | false {
  return skipWhenMissing(
    'the built widget',
    !existsSync(join(widgetDir, 'connect.js')) && 'dist/widget/ is not built: npm run build -w @aggregation/connect',
  );
}
