// The CI recipes name the command's reports where it writes them. (The GitHub Action's steps run for real in the
// release consumer test, apps/release/test/consumer-contract-tests.test.ts; GitLab cannot run here.)
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
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

/** What every recipe passes npx before the command's own arguments. */
const npx = ['--no', '--', 'aggregation-contract-tests'];

/** Runs a recipe's script with a stand-in `npx` that writes the arguments it got, one per line; answers them. */
function npxArguments(shell: 'bash' | 'sh', script: string, env: Record<string, string>): string[] {
  const dir = mkdtempSync(join(tmpdir(), 'ci-recipe-'));
  try {
    writeFileSync(join(dir, 'npx'), `#!/bin/sh\nfor a in "$@"; do printf '%s\\n' "$a"; done > "${join(dir, 'args')}"\nexit 3\n`, { mode: 0o755 });
    // GitLab's job ends with the command's exit code; the action keeps it for a later step.
    const code = spawnSync(shell, ['-c', script], {
      env: { PATH: `${dir}:${process.env.PATH}`, GITHUB_OUTPUT: join(dir, 'output'), ...env },
      stdio: 'ignore',
    }).status;
    assert.equal(code, shell === 'sh' ? 3 : 0);
    if (shell === 'bash') assert.equal(readFileSync(join(dir, 'output'), 'utf8'), 'exit-code=3\n', "the command's exit code is the step's output");
    return readFileSync(join(dir, 'args'), 'utf8').trimEnd().split('\n');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

test('GitHub: consumer-command runs the consumer mode with the command as written; without it, the server mode', () => {
  const action = parse(readFileSync(join(packageDir, 'action.yml'), 'utf8')) as {
    inputs: Record<string, { required?: boolean; default?: string }>;
    runs: { steps: { id?: string; run?: string }[] };
  };
  assert.equal(action.inputs['consumer-command']?.default, '');
  assert.equal(action.inputs['base-url']?.required, false);
  const script = action.runs.steps.find((s) => s.id === 'run')!.run!;
  assert.deepEqual(npxArguments('bash', script, { CONSUMER_COMMAND: 'npm test -- --run', REPORT_DIR: 'r', ARGS: '--faults all' }), [
    ...npx,
    'consumer',
    '--report-dir',
    'r',
    '--faults',
    'all',
    '--',
    'bash',
    '-c',
    'npm test -- --run',
  ]);
  assert.deepEqual(npxArguments('bash', script, { CONSUMER_COMMAND: '', REPORT_DIR: 'r', ARGS: '--quick' }), [...npx, '--report-dir', 'r', '--quick']);
});

test('GitLab: CONTRACT_TESTS_CONSUMER_COMMAND runs the consumer mode; without it, the server mode', () => {
  const template = parse(readFileSync(join(packageDir, 'ci', 'gitlab-ci.yml'), 'utf8')) as Record<
    string,
    { variables: Record<string, string>; script: string[] }
  >;
  const job = template['.aggregation-contract-tests']!;
  assert.equal(job.variables.CONTRACT_TESTS_CONSUMER_COMMAND, '');
  const script = job.script.join('\n');
  const env = { CONTRACT_TESTS_REPORT_DIR: 'r', CONTRACT_TESTS_ARGS: '--faults rate-limit' };
  assert.deepEqual(npxArguments('sh', script, { ...env, CONTRACT_TESTS_CONSUMER_COMMAND: 'python3 -m pytest' }), [
    ...npx,
    'consumer',
    '--report-dir',
    'r',
    '--faults',
    'rate-limit',
    '--',
    'sh',
    '-c',
    'python3 -m pytest',
  ]);
  assert.deepEqual(npxArguments('sh', script, { ...env, CONTRACT_TESTS_CONSUMER_COMMAND: '' }), [
    ...npx,
    '--report-dir',
    'r',
    '--faults',
    'rate-limit',
  ]);
});
