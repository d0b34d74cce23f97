// The Node.js releases kept in the user's cache, made with an `npm` of the test's own on PATH (the real one is what
// the client's and the CLI's runtime tests use): installed once into a folder of its own and renamed into place, a
// place already there used as it is, a place another run filled meanwhile kept, and nothing half made left behind.
import assert from 'node:assert/strict';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, test } from 'vitest';
import { nodeRuntimesDir, registryNodeBin } from '../src/node-runtimes.ts';

describe('registryNodeBin', () => {
  const scratch = mkdtempSync(join(tmpdir(), 'node-runtimes-'));
  const fakeBin = join(scratch, 'bin');
  const path = process.env.PATH;
  let cache: string;

  beforeAll(() => {
    // Installs into its working folder as `npm install node@<spec>` would, saying what it was asked; with RACE set,
    // another run fills that place while it installs; with FAIL set, it fails.
    mkdirSync(fakeBin);
    writeFileSync(
      join(fakeBin, 'npm'),
      `#!/bin/sh
[ -n "$FAIL" ] && { echo "npm ERR! no such version" >&2; exit 1; }
echo "$@" > asked
mkdir -p node_modules/.bin && echo ours > node_modules/.bin/node
[ -n "$RACE" ] && mkdir -p "$RACE/node_modules/.bin" && echo theirs > "$RACE/node_modules/.bin/node"
exit 0
`,
    );
    chmodSync(join(fakeBin, 'npm'), 0o755);
    process.env.PATH = `${fakeBin}:${path}`;
  });
  afterEach(() => {
    delete process.env.RACE;
    delete process.env.FAIL;
  });
  afterAll(() => {
    process.env.PATH = path;
    rmSync(scratch, { recursive: true, force: true });
  });

  const freshCache = () => {
    cache = mkdtempSync(join(scratch, 'cache-'));
    return cache;
  };
  const leftovers = () => readdirSync(cache).filter((name) => name.includes('.partial-'));

  test('installs node@<spec> in a folder of its own, then puts it in place', async () => {
    const bin = await registryNodeBin('20.19.0', freshCache());
    assert.equal(bin, join(cache, '20.19.0', 'node_modules', '.bin'));
    assert.equal(readFileSync(join(bin, 'node'), 'utf8').trim(), 'ours');
    assert.match(readFileSync(join(cache, '20.19.0', 'asked'), 'utf8'), /^install node@20\.19\.0 /);
    assert.deepEqual(JSON.parse(readFileSync(join(cache, '20.19.0', 'package.json'), 'utf8')).private, true);
    assert.deepEqual(leftovers(), []);
  });

  test('uses a place already there without installing', async () => {
    const dir = freshCache();
    mkdirSync(join(dir, '22', 'node_modules', '.bin'), { recursive: true });
    writeFileSync(join(dir, '22', 'node_modules', '.bin', 'node'), 'kept\n');
    process.env.FAIL = '1';
    const bin = await registryNodeBin('22', dir);
    assert.equal(readFileSync(join(bin, 'node'), 'utf8').trim(), 'kept');
    assert.ok(!existsSync(join(dir, '22', 'asked')));
  });

  test('keeps what another run put in place while it installed, and removes its own', async () => {
    const dir = freshCache();
    process.env.RACE = join(dir, '22.12.0');
    const bin = await registryNodeBin('22.12.0', dir);
    assert.equal(readFileSync(join(bin, 'node'), 'utf8').trim(), 'theirs');
    assert.deepEqual(leftovers(), []);
  });

  test('a failed install rejects, and leaves neither a place nor a half-made folder', async () => {
    const dir = freshCache();
    process.env.FAIL = '1';
    await assert.rejects(registryNodeBin('20.19.0', dir), /no such version/);
    assert.deepEqual(readdirSync(dir), []);
  });

  test('lives under $XDG_CACHE_HOME when it is set, else under ~/.cache', () => {
    assert.equal(nodeRuntimesDir({ XDG_CACHE_HOME: '/x/cache' }), '/x/cache/aggregation-node-runtimes');
    assert.match(nodeRuntimesDir({}), /\/\.cache\/aggregation-node-runtimes$/);
  });
});
