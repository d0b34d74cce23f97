// The core must run in browsers and edge runtimes: no Node built-ins and no Node-only packages outside the Node entry
// (src/node.ts and its src/node-*.ts modules).
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { it } from 'vitest';

const src = join(import.meta.dirname, '..', 'src');
const nodeOnly = /from\s+['"](node:[^'"]+|undici|fs|path|crypto|http|https|net|tls|buffer|stream)['"]/;
const nodeGlobals = /\b(process\.|Buffer\.|require\(|__dirname)/;
const nodeEntry = /^node(-[\w-]+)?\.ts$/;

it('core modules import nothing Node-only and use no Node globals', () => {
  const files = readdirSync(src, { recursive: true, encoding: 'utf8' }).filter((file) => file.endsWith('.ts') && !nodeEntry.test(file));
  assert.ok(files.includes('index.ts'));
  assert.ok(files.includes(join('resources', 'accounts.ts')), 'the resource modules are checked too');
  for (const file of files) {
    const text = readFileSync(join(src, file), 'utf8');
    assert.doesNotMatch(text, nodeOnly, `${file} imports a Node-only module`);
    assert.doesNotMatch(text, nodeGlobals, `${file} uses a Node global`);
    assert.doesNotMatch(text, /from\s+['"](\.\.?\/)+node(-[\w-]+)?\.ts['"]/, `${file} imports the Node entry`);
  }
});
