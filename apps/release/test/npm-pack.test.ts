// The checks of release:pack find what they are there for: a package whose `types` lead nowhere and whose bin is
// not executable is refused by publint and by attw, while a correct one passes both.
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { lintTarballs, packPackages } from '../src/npm-pack.ts';

/** The tarball of the package in `dir`, packed as release:pack packs. */
const packed = async (dir: string, destination: string) => (await packPackages([dir], destination))[0]!.tarball;
/** What release:pack's checks report for one tarball. */
const lintTarball = async (tarball: string) => (await lintTarballs([tarball]))[0]!;

async function writePackage(dir: string, manifest: object, files: Record<string, string>): Promise<void> {
  await mkdir(join(dir, 'dist'), { recursive: true });
  await writeFile(join(dir, 'package.json'), JSON.stringify(manifest, null, 2));
  for (const [name, text] of Object.entries(files)) await writeFile(join(dir, name), text);
}

describe('the checks of a packed package', () => {
  let root: string;
  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'release-lint-'));
  });
  afterAll(() => rm(root, { recursive: true, force: true }));

  const base = { version: '1.0.0', type: 'module', license: 'MIT', files: ['dist'] };
  const files = { 'dist/index.js': 'export const answer = 42;\n', 'dist/index.d.ts': 'export declare const answer: number;\n', 'README.md': '# x\n' };

  it('passes a package whose exports, types and files agree', async () => {
    const dir = join(root, 'good');
    await writePackage(dir, { ...base, name: 'good', exports: { '.': { types: './dist/index.d.ts', default: './dist/index.js' } } }, files);
    assert.deepEqual(await lintTarball(await packed(dir, root)), []);
  });

  it('refuses types that lead nowhere and a bin without a shebang', async () => {
    const dir = join(root, 'bad');
    const manifest = {
      ...base,
      name: 'bad',
      bin: { bad: './dist/index.js' },
      exports: { '.': { types: './dist/missing.d.ts', default: './dist/index.js' } },
    };
    await writePackage(dir, manifest, files);
    const problems = await lintTarball(await packed(dir, root));
    assert.ok(
      problems.some((problem) => problem.startsWith('publint error') && problem.includes('missing.d.ts')),
      problems.join('\n'),
    );
    assert.ok(
      problems.some((problem) => problem.startsWith('publint error') && problem.includes('shebang')),
      problems.join('\n'),
    );
    assert.ok(
      problems.some((problem) => problem.startsWith('attw:')),
      problems.join('\n'),
    );
  });
});
