// The closing line of `npm test` (scripts/test.ts): counted from what vitest printed under turbo and from turbo's run
// summary, it says when a run failed, including a suite that threw in beforeAll and tasks that never ran.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, test } from 'vitest';
import { TestRunTally } from '../src/test-run.ts';

const repoRoot = join(import.meta.dirname, '..', '..', '..');
const ESC = String.fromCharCode(27);

/** A tally fed with turbo's lines of vitest's counts, coloured as vitest prints them. */
function tally(lines: string[]): TestRunTally {
  const counted = new TestRunTally();
  for (const line of lines) counted.line(line.replaceAll('[', `${ESC}[2m`).replaceAll(']', `${ESC}[22m`));
  return counted;
}

describe('TestRunTally', () => {
  test('a green run, replayed from the cache or not: the plain line', () => {
    const lines = [
      'a:test: [ Test Files ] 2 passed (2)',
      'a:test: [      Tests ] 7 passed | 1 skipped | 1 todo (9)',
      'b:test:       Tests  3 passed (3)',
    ];
    assert.equal(
      tally(lines).closingLine({ exitCode: 0, ran: [{ taskId: 'a#test', execution: { exitCode: 0 } }] }),
      'tests: 10 passed, 0 failed, 2 skipped',
    );
  });

  test('a suite that threw in beforeAll counts as failed though its tests are only skipped', () => {
    const lines = ['a:test:  Test Files  1 failed | 1 passed (2)', 'a:test:       Tests  3 passed | 2 skipped (5)'];
    const line = tally(lines).closingLine({ exitCode: 1, ran: [{ taskId: 'a#test', execution: { exitCode: 1 } }], planned: ['a#test'] });
    assert.equal(line, 'tests: 3 passed, 1 failed, 2 skipped; 1 test file failed (a#test); 1 task failed (a#test)');
  });

  test('a failed task with no failed test, and tasks that never ran, are said', () => {
    const lines = ['b:test:       Tests  4 passed (4)'];
    const ran = [
      { taskId: 'b#test', execution: { exitCode: 0 } },
      { taskId: '@scope/c#typecheck', execution: { exitCode: 2, error: 'exited (2)' } },
    ];
    const planned = ['b#test', '@scope/c#typecheck', 'c#test', 'd#test', 'e#test', 'f#test', 'g#test', 'h#test'];
    assert.equal(
      tally(lines).closingLine({ exitCode: 1, ran, planned }),
      'tests: 4 passed, 1 failed, 0 skipped; 1 task failed (@scope/c#typecheck), 6 not run (c#test, d#test, e#test, f#test, g#test, ...)',
    );
  });

  test('turbo failing before any task ran still fails the line', () => {
    assert.equal(tally([]).closingLine({ exitCode: 1, ran: [] }), 'tests: 0 passed, 1 failed, 0 skipped; turbo exited with 1');
  });
});

describe("npm test's script on a workspace that fails", () => {
  const dir = mkdtempSync(join(tmpdir(), 'test-run-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  test('a suite that throws in beforeAll, and the task after it that never runs, make the closing line say it failed', async () => {
    cpSync(join(import.meta.dirname, 'fixtures', 'failing-workspace'), dir, { recursive: true });
    // The repository's vitest and turbo, as an installed workspace would have them.
    symlinkSync(join(repoRoot, 'node_modules'), join(dir, 'node_modules'));
    // Out of turbo's file hashing, as a repository's .gitignore keeps it: else turbo walks the whole of it, twice.
    writeFileSync(join(dir, '.gitignore'), 'node_modules\n');
    const env = { ...process.env, PATH: `${join(repoRoot, 'node_modules', '.bin')}:${process.env.PATH}`, CI: '' };
    const failed = await promisify(execFile)(process.execPath, [join(repoRoot, 'scripts', 'test.ts'), '--summarize'], { cwd: dir, env }).then(
      () => undefined,
      (error: { code: number; stdout: string }) => error,
    );
    assert.ok(failed, 'npm test exits with a failure');
    assert.equal(failed.code, 1);
    const closing = failed.stdout.trimEnd().split('\n').at(-1);
    assert.equal(
      closing,
      'tests: 1 passed, 1 failed, 3 skipped; 1 test file failed (throws#test); 1 task failed (throws#test), 1 not run (after#test)',
    );
    // Asked for with --summarize, turbo's run summary is kept (the bench reads the slowest tasks from it).
    assert.equal(readdirSync(join(dir, '.turbo', 'runs')).filter((name) => name.endsWith('.json')).length, 1);
  });
});
