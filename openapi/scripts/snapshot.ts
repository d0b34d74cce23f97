// `npm run snapshot -w @aggregation/openapi`: at release time, keeps each dated version's bundle as released, in
// released/<version>.json, which the breaking-change gate compares the bundles with from then on. Commit the result.
import { copyFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { distDir, versions } from '../src/contract.ts';
import { releasedDir } from './breaking-changes.ts';

mkdirSync(releasedDir, { recursive: true });
for (const version of versions) {
  copyFileSync(join(distDir, `${version}.json`), join(releasedDir, `${version}.json`));
  console.log(`released/${version}.json`);
}
