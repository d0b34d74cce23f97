// The README quotes the example files, which tsc compiles; this keeps the quotes identical to them.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { it } from 'vitest';

const root = join(import.meta.dirname, '..');
const readme = readFileSync(join(root, 'README.md'), 'utf8');
const quoted = [...readme.matchAll(/<!-- example: (examples\/[\w.-]+\.ts) -->\n```ts\n([\s\S]*?)\n```/g)];

it('every README example equals its file', () => {
  assert.ok(quoted.length > 0);
  for (const [, file, code] of quoted) {
    assert.equal(code, readFileSync(join(root, file as string), 'utf8').trimEnd(), `${file} differs from the README`);
  }
});

it('every example file is quoted in the README', () => {
  const files = readdirSync(join(root, 'examples')).filter((file) => file.endsWith('.ts'));
  assert.deepEqual(quoted.map(([, file]) => file).sort(), files.map((file) => `examples/${file}`).sort());
});

it('every TypeScript block of the README is a compiled example', () => {
  const blocks = readme.match(/```ts\n/g) ?? [];
  assert.equal(blocks.length, quoted.length);
});
