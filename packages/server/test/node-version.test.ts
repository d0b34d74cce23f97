// The server needs node:sqlite, unflagged from Node.js 24: an older Node.js is told so in words.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { it } from 'vitest';
import { unsupportedNodeMessage } from '../src/node-version.ts';

it('names the Node.js it needs and the one it runs on, below 24 only', () => {
  assert.equal(
    unsupportedNodeMessage('20.20.2'),
    '@aggregation/server needs Node.js 24 or newer (it stores data with node:sqlite); this is Node.js 20.20.2.',
  );
  assert.match(unsupportedNodeMessage('22.12.0') ?? '', /needs Node\.js 24 or newer/);
  assert.equal(unsupportedNodeMessage('24.0.0'), undefined);
  assert.equal(unsupportedNodeMessage(process.versions.node), undefined);
});

it('the package entry checks the version before anything else loads', () => {
  const entry = readFileSync(join(import.meta.dirname, '..', 'src', 'index.ts'), 'utf8');
  const firstImport = entry.split('\n').find((line) => line.startsWith('import ') || line.startsWith('export '));
  assert.equal(firstImport, "import './require-node.ts';");
});
