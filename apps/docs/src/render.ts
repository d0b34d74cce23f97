// Renders one decorated bundle to a self-contained HTML page with Redocly's build-docs (Redoc).
import { execFile } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { makeOffline } from './offline.ts';
import { packageDir } from './paths.ts';
import { addReferenceChrome, type ReferenceChrome } from './reference-chrome.ts';

const run = promisify(execFile);
const require = createRequire(import.meta.url);

function redoclyCli(): string {
  const manifest = require.resolve('@redocly/cli/package.json');
  return join(manifest, '..', 'bin', 'cli.js');
}

export async function renderPage(input: string, output: string, title: string, chrome: ReferenceChrome): Promise<void> {
  // Run by this same Node (24): Redocly CLI 2 warns on older ones. No telemetry or update checks on a build.
  await run(
    process.execPath,
    [redoclyCli(), 'build-docs', input, '--output', output, '--title', title, '--inlineBundle', '--config', join(packageDir, 'redocly.yaml')],
    {
      cwd: packageDir,
      env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
      maxBuffer: 16 * 1024 * 1024,
    },
  );
  await writeFile(output, addReferenceChrome(makeOffline(await readFile(output, 'utf8')), chrome));
}
