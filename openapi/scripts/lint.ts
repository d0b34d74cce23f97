// Lints the description twice over: Spectral (.spectral.yaml) and Redocly (redocly.yaml), each on the source roots
// and on the bundles in dist/ (run `npm run build` first), Redocly on the generators' variants of the bundles, and
// both on the OpenAPI 3.0.3 variants.
// Any warning fails the run.
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
// Generated beside the bundles by `npm run build`, which lint runs after.
import { DOCUMENT_NAMES as names } from '@aggregation/openapi/versions';
import { stylish } from '@stoplight/spectral-formatters';
import { lintText, loadRuleset } from './spectral.ts';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const sources = names.map((name) => `spec/${name}.yaml`);
// The YAML bundles hold the same document as the JSON ones; linting one form suffices.
const bundles = names.map((name) => `dist/${name}.json`);
// The generators' variants are the bundles without `webhooks` (src/generators.ts): Spectral's rules judge the API's
// design, which the bundles already show, so Redocly checks the variants' structure and references. Their event
// schemas are kept on purpose with nothing left to reference them, hence no-unused-components is off for them.
const generatorVariants = names.map((name) => `dist/${name}.generators.json`);
// The OpenAPI 3.0.3 variants (scripts/openapi-3.0.ts) are what 3.0 tools read: Spectral's stock ruleset
// (lint/spectral-oas.yaml) must find no error in them, its example checks judging by 3.0's rules; Redocly checks their
// structure, references and examples likewise.
const openApi30Variants = names.map((name) => `dist/${name}.openapi-3.0.json`);

// Workspaces hoist binaries to the repository's node_modules: look upwards for them.
function findBin(name: string): string {
  for (let dir = root; ; dir = dirname(dir)) {
    const bin = join(dir, 'node_modules', '.bin', name);
    if (existsSync(bin)) return bin;
    if (dirname(dir) === dir) throw new Error(`${name} not found in node_modules/.bin`);
  }
}

type Outcome = { label: string; ok: boolean; output: string };

/** Spectral's severities (DiagnosticSeverity): a finding at or below the level fails. */
const FAIL_AT = { error: 0, warn: 1 } as const;

/** `spectral lint --ruleset <ruleset> --fail-severity <failAt> <document>` of each document, in this process (spectral.ts). */
async function spectral(label: string, rulesetFile: string, failAt: keyof typeof FAIL_AT, documents: string[]): Promise<Outcome[]> {
  const ruleset = await loadRuleset(join(root, rulesetFile));
  const outcomes: Outcome[] = [];
  for (const document of documents) {
    const path = join(root, document);
    try {
      const results = await lintText(ruleset, await readFile(path, 'utf8'), path);
      outcomes.push({
        label: `${label} ${document}`,
        ok: results.every((result) => result.severity > FAIL_AT[failAt]),
        output: stylish(results, { failSeverity: FAIL_AT[failAt] }).trim(),
      });
    } catch (error) {
      // As the CLI would: a document Spectral cannot lint fails with what it said, and the others are still linted.
      outcomes.push({ label: `${label} ${document}`, ok: false, output: String((error as Error).stack ?? error) });
    }
  }
  return outcomes;
}

/** Runs a CLI with this process's Node (the pinned one), collecting its output instead of interleaving it. */
function run(label: string, bin: string, args: string[]): Promise<Outcome> {
  return new Promise((resolve) => {
    const env = { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' };
    execFile(process.execPath, [findBin(bin), ...args], { cwd: root, env, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => {
      resolve({ label, ok: !error, output: `${stdout}${stderr}`.trim() });
    });
  });
}

const missing = [...bundles, ...generatorVariants, ...openApi30Variants].filter((bundle) => !existsSync(join(root, bundle)));
if (missing.length > 0) {
  console.error(`Missing bundles (${missing.join(', ')}): run \`npm run build\` first.`);
  process.exit(1);
}

const outcomes = (
  await Promise.all([
    spectral('spectral', '.spectral.yaml', 'warn', [...sources, ...bundles]),
    spectral('spectral:oas', 'lint/spectral-oas.yaml', 'error', openApi30Variants),
    Promise.all([
      // Without arguments Redocly lints every API of redocly.yaml, i.e. the source roots.
      run('redocly (sources)', 'redocly', ['lint']),
      run('redocly (bundles)', 'redocly', ['lint', ...bundles]),
      run("redocly (generators' variants)", 'redocly', ['lint', '--skip-rule', 'no-unused-components', ...generatorVariants]),
      run('redocly (OpenAPI 3.0 variants)', 'redocly', ['lint', '--skip-rule', 'no-unused-components', ...openApi30Variants]),
    ]),
  ])
).flat();

for (const { label, ok, output } of outcomes) {
  console.log(`${ok ? 'ok  ' : 'FAIL'} ${label}`);
  if (!ok) console.log(`${output.replace(/^/gm, '     ')}\n`);
}
const failed = outcomes.filter((outcome) => !outcome.ok).length;
console.log(failed === 0 ? 'Lint passed.' : `Lint failed: ${failed} of ${outcomes.length} checks.`);
process.exitCode = failed === 0 ? 0 : 1;
