import assert from 'node:assert/strict';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { afterAll, test } from 'vitest';
import { findChromium, machineNode, which } from '../src/index.ts';

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

test("machineNode: the first node on PATH outside node_modules, the user's own", () => {
  const project = join(first, 'node_modules', '.bin');
  mkdirSync(project, { recursive: true });
  for (const dir of [project, second]) {
    writeFileSync(join(dir, 'node'), '#!/bin/sh\n');
    chmodSync(join(dir, 'node'), 0o755);
  }
  assert.equal(machineNode({ PATH: [project, second].join(delimiter) }), join(second, 'node'));
  assert.equal(machineNode({ PATH: project }), undefined);
});

test('findChromium: CHROMIUM_PATH when it exists, else none of a missing one', () => {
  const chromium = join(first, 'chromium');
  writeFileSync(chromium, '');
  assert.equal(findChromium({ CHROMIUM_PATH: chromium }), chromium);
  const found = findChromium({ CHROMIUM_PATH: join(first, 'absent') });
  assert.ok(found === undefined || found.startsWith('/usr/bin/'), String(found));
});
