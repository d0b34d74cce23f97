import assert from 'node:assert/strict';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { afterAll, test } from 'vitest';
import { which } from '../src/index.ts';

const first = mkdtempSync(join(tmpdir(), 'which-a-'));
const second = mkdtempSync(join(tmpdir(), 'which-b-'));
afterAll(() => {
  rmSync(first, { recursive: true, force: true });
  rmSync(second, { recursive: true, force: true });
});

test('the first executable of that name on PATH, in a folder the filter takes', () => {
  for (const dir of [first, second]) {
    writeFileSync(join(dir, 'tool'), '#!/bin/sh\n');
    chmodSync(join(dir, 'tool'), 0o755);
  }
  writeFileSync(join(first, 'plain'), 'not executable');
  const env = { PATH: ['', first, second].join(delimiter) };
  assert.equal(which('tool', undefined, env), join(first, 'tool'));
  assert.equal(
    which('tool', (dir) => dir !== first, env),
    join(second, 'tool'),
  );
  assert.equal(which('plain', undefined, env), undefined);
  assert.equal(which('absent', undefined, env), undefined);
});
