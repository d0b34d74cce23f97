// How a Schemathesis run is judged, and that its environment is pinned.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'vitest';
import { packageDir } from '../src/python.ts';
import { defaultSeeds, type JsonReport, parseSeeds, summarize } from '../src/schemathesis.ts';

const report = (failures: JsonReport['failures'], errored = 0): JsonReport => ({
  exit_code: failures.length ? 1 : 0,
  operations: { selected: 2, tested: 2, errored: 0 },
  phases: {},
  test_cases: { generated: 40, with_failures: 0, errored },
  failures,
  errors: [],
});

test('server errors, schema violations and crashes are counted apart from other failures', () => {
  const counts = summarize(
    report(
      [
        { code: 'ST101', title: 'Server error', count: 2, operations: ['GET /accounts'] },
        { code: 'ST108', title: 'Response violates schema', count: 3, operations: ['GET /accounts'] },
        { code: 'ST204', title: 'Wrong response to undeclared method', count: 1, operations: ['TRACE /accounts'] },
      ],
      1,
    ),
  );
  assert.deepEqual(counts, { failures: 6, serverErrors: 2, violations: 3, crashes: 1 });
});

test('a clean run counts nothing', () => {
  assert.deepEqual(summarize(report([])), { failures: 0, serverErrors: 0, violations: 0, crashes: 0 });
});

test('requirements.txt pins every package to one version', () => {
  const lines = readFileSync(join(packageDir, 'requirements.txt'), 'utf8')
    .split('\n')
    .filter((line) => line.trim() && !line.startsWith('#'));
  assert.ok(lines.some((line) => line.startsWith('schemathesis==')));
  for (const line of lines) assert.match(line, /^[A-Za-z0-9_.-]+==[0-9][\w.]*$/, line);
});

test('seeds are read from a comma-separated list, `random` drawing a fresh one', () => {
  assert.deepEqual(
    parseSeeds('20201012, 7,random', () => 42),
    [20201012, 7, 42],
  );
  assert.throws(() => parseSeeds('7,abc'), /--seed takes numbers or "random"/);
  assert.equal(new Set(parseSeeds(defaultSeeds)).size, 4);
});
