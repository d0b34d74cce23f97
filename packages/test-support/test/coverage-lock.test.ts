// Coverage in every workspace (vitest.shared.ts) must not depend on what an earlier run left behind: vitest claims a
// reports directory with a lock file in the system's temporary directory, and a run that did not end cleanly leaves
// its lock there, naming a process id that may since belong to another live process.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, test } from 'vitest';

const repoRoot = join(import.meta.dirname, '..', '..', '..');

/** Where vitest keeps the lock of a reports directory: named by the directory's resolved path. */
function lockFileOf(reportsDirectory: string): string {
  const hash = createHash('sha256').update(reportsDirectory).digest('hex').slice(0, 16);
  return join(tmpdir(), `vitest-coverage-${hash}.lock`);
}

describe('coverage of a workspace', () => {
  const dir = mkdtempSync(join(tmpdir(), 'coverage-lock-'));
  const planted = lockFileOf(join(dir, 'coverage'));
  afterAll(() => {
    rmSync(dir, { recursive: true, force: true });
    rmSync(planted, { force: true });
  });

  test('passes beside a lock an earlier run left to a live process, and beside another run of its own', async () => {
    // A workspace with one passing test, measured through the repository's own setup.
    mkdirSync(join(dir, 'src'));
    mkdirSync(join(dir, 'test'));
    writeFileSync(join(dir, 'package.json'), '{ "name": "coverage-workspace", "private": true, "type": "module" }\n');
    writeFileSync(join(dir, 'src', 'sum.ts'), 'export const sum = (a: number, b: number): number => a + b;\n');
    writeFileSync(
      join(dir, 'test', 'sum.test.ts'),
      "import { expect, test } from 'vitest';\nimport { sum } from '../src/sum.ts';\ntest('adds', () => expect(sum(2, 3)).toBe(5));\n",
    );
    symlinkSync(join(repoRoot, 'node_modules'), join(dir, 'node_modules'));
    writeFileSync(
      join(dir, 'vitest.config.ts'),
      `import { workspaceTests } from ${JSON.stringify(join(repoRoot, 'vitest.shared.ts'))};\n` +
        `export default workspaceTests({ name: 'coverage-workspace', coverageFloor: { statements: 100, branches: 100, functions: 100, lines: 100 } });\n`,
    );
    // The lock of the directory's default place, left by an earlier run whose process id this live process now has.
    writeFileSync(planted, JSON.stringify({ pid: process.pid, reportsDirectory: join(dir, 'coverage') }));

    const vitest = join(repoRoot, 'node_modules', 'vitest', 'vitest.mjs');
    const run = () =>
      promisify(execFile)(process.execPath, [vitest, 'run'], { cwd: dir, env: { ...process.env, CI: 'true' } }).then(
        ({ stdout }) => ({ code: 0, output: stdout }),
        (error: { code: number; stdout: string; stderr: string }) => ({ code: error.code, output: error.stdout + error.stderr }),
      );
    const runs = await Promise.all([run(), run()]);
    for (const { code, output } of runs) {
      assert.equal(code, 0, output);
      assert.match(output, /Coverage summary/);
    }
  });
});
