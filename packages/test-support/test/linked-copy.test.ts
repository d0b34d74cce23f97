// linkedCopy: a tree copied with its files hard-linked, its directories and links its own.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readlinkSync, renameSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, test } from 'vitest';
import { linkedCopy } from '../src/linked-copy.ts';

const dir = mkdtempSync(join(tmpdir(), 'linked-copy-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

test('the copy holds the same files, as links to them, and changing its tree leaves the original as it was', () => {
  const from = join(dir, 'from');
  mkdirSync(join(from, 'pkg', 'bin'), { recursive: true });
  writeFileSync(join(from, 'pkg', 'index.js'), 'export {};\n');
  symlinkSync('../pkg/index.js', join(from, 'pkg', 'bin', 'run'));
  const to = join(dir, 'to');
  linkedCopy(from, to);

  assert.equal(readFileSync(join(to, 'pkg', 'index.js'), 'utf8'), 'export {};\n');
  assert.equal(statSync(join(to, 'pkg', 'index.js')).ino, statSync(join(from, 'pkg', 'index.js')).ino);
  assert.equal(readlinkSync(join(to, 'pkg', 'bin', 'run')), '../pkg/index.js', 'a relative link stays relative, leading into the copy');
  renameSync(join(to, 'pkg'), join(to, 'moved'));
  writeFileSync(join(to, 'moved', 'added.js'), '');
  assert.ok(existsSync(join(from, 'pkg', 'index.js')));
  assert.ok(!existsSync(join(from, 'pkg', 'added.js')));
});

test('a missing tree copies nothing', () => {
  linkedCopy(join(dir, 'none'), join(dir, 'none-copy'));
  assert.ok(!existsSync(join(dir, 'none-copy')));
});
