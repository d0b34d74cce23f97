// The workspaces the release packs are the folders the root manifest's patterns name, as npm reads them.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, it } from 'vitest';
import { repoRoot, workspaceDirs } from '../src/packages.ts';

describe('the workspaces', () => {
  const root = mkdtempSync(join(tmpdir(), 'release-workspaces-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  const project = (name: string, workspaces: string[], folders: string[]) => {
    const dir = join(root, name);
    for (const folder of folders) {
      mkdirSync(join(dir, folder), { recursive: true });
      writeFileSync(join(dir, folder, 'package.json'), JSON.stringify({ name: folder.replaceAll('/', '-'), version: '1.0.0' }));
    }
    mkdirSync(join(dir, 'packages', 'no-manifest'), { recursive: true });
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'root', private: true, workspaces }));
    return dir;
  };

  it('are the folders with a package.json that a pattern names, nested ones included', async () => {
    const dir = project('plain', ['packages/*', 'apps/**', 'openapi'], ['packages/a', 'packages/b', 'apps/x/y', 'openapi', 'other/c']);
    assert.deepEqual(
      await workspaceDirs(dir),
      ['apps/x/y', 'openapi', 'packages/a', 'packages/b'].map((folder) => join(dir, folder)),
    );
  });

  it('refuse a negated pattern, which npm reads as an exclusion and a glob would not', async () => {
    const dir = project('negated', ['packages/*', '!packages/b'], ['packages/a', 'packages/b']);
    await assert.rejects(workspaceDirs(dir), /!packages\/b are negated/);
  });

  it("are this repository's openapi, packages and apps", async () => {
    const found = (await workspaceDirs()).map((dir) => dir.slice(repoRoot.length + 1));
    assert.ok(
      found.includes('openapi') && found.some((dir) => dir.startsWith('packages/')) && found.some((dir) => dir.startsWith('apps/')),
      found.join(),
    );
  });
});
