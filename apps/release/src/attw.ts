// `node src/attw.ts <tarball>...`: attw's checks of each tarball, with the profile and the report of its command
// (`attw <tarball> --profile esm-only --format ascii`), in one process: its command would load TypeScript again for
// each tarball. Prints a JSON array: for each tarball in order, attw's report when it finds a problem, else null.
// A process of its own because the test runner resolves packages with the `development` condition, which leads
// @arethetypeswrong/core to TypeScript sources that Node.js does not run from node_modules.
import { readFile } from 'node:fs/promises';
import { getExitCode } from '@arethetypeswrong/cli/internal/getExitCode';
import { typed } from '@arethetypeswrong/cli/internal/render';
import { checkPackage, createPackageFromTarballData } from '@arethetypeswrong/core';

/**
 * ESM only by design: `require()` of it works where Node.js loads ES modules synchronously (20.19, 22.12 and newer), so
 * attw's profile for ESM-only packages, which still checks every ESM and bundler resolution.
 */
const esmOnly = { ignoreResolutions: ['node10', 'node16-cjs'] as ('node10' | 'node16-cjs')[], format: 'ascii' as const, emoji: false };

const reports: (string | null)[] = [];
for (const tarball of process.argv.slice(2)) {
  const analysis = await checkPackage(createPackageFromTarballData(new Uint8Array(await readFile(tarball))));
  reports.push(analysis.types && getExitCode(analysis, esmOnly) !== 0 ? await typed(analysis, esmOnly) : null);
}
console.log(JSON.stringify(reports));
