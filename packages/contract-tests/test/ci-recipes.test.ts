// The CI recipes name the command's reports where it writes them. (The GitHub Action's steps run for real in the
// release consumer test, apps/release/test/consumer-contract-tests.test.ts; GitLab cannot run here.)
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'vitest';
import { parse } from 'yaml';

const packageDir = join(import.meta.dirname, '..');

test('GitLab: the JUnit report is the junit.xml of the report directory the command writes', () => {
  const template = parse(readFileSync(join(packageDir, 'ci', 'gitlab-ci.yml'), 'utf8')) as Record<
    string,
    { variables: Record<string, string>; script: string[]; artifacts: { when: string; paths: string[]; reports: { junit: string } } }
  >;
  const job = template['.aggregation-contract-tests']!;
  assert.match(job.script.join('\n'), /npx --no -- aggregation-contract-tests --report-dir "\$CONTRACT_TESTS_REPORT_DIR"/);
  assert.equal(job.artifacts.reports.junit, '$CONTRACT_TESTS_REPORT_DIR/junit.xml');
  assert.equal(job.artifacts.when, 'always');
  assert.equal(job.variables.XDG_CACHE_HOME, '$CI_PROJECT_DIR/.cache');
});

test('GitHub: the action uploads the report directory it passes, whatever the verdict', () => {
  const action = parse(readFileSync(join(packageDir, 'action.yml'), 'utf8')) as {
    runs: { steps: { id?: string; uses?: string; if?: string; with?: Record<string, string>; run?: string }[] };
  };
  const upload = action.runs.steps.find((s) => s.uses?.startsWith('actions/upload-artifact'))!;
  assert.equal(upload.if, 'always()');
  assert.equal(upload.with!.path, ['${{', 'inputs.report-dir', '}}'].join(' '));
  const run = action.runs.steps.find((s) => s.id === 'run')!;
  assert.match(run.run!, /npx --no -- aggregation-contract-tests --report-dir "\$REPORT_DIR"/);
  // Inputs reach the scripts only through the environment.
  for (const step of action.runs.steps) assert.doesNotMatch(step.run ?? '', /\$\{\{/);
});
