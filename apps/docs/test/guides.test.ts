// The guides: read in navigation order, their code blocks found with the line each starts on, the Errors guide's
// table of codes made from the description's declaration, and each rendered into a page of the site.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { currentVersion, loadBundle } from '@aggregation/openapi/contract';
import { errorCodesOf } from '@aggregation/openapi/error-codes';
import { describe, it } from 'vitest';
import { codeBlocksOf, guideOrder, guidePath, loadGuides } from '../src/guides.ts';
import { docsDir } from '../src/paths.ts';

describe('guides', () => {
  it('every guide is read, in the navigation order, getting started first', () => {
    const guides = loadGuides();
    assert.deepEqual(
      guides.map((guide) => guide.name),
      [...guideOrder],
    );
    for (const guide of guides) assert.ok(guide.title && guide.summary, guide.name);
  });

  it('finds each code block with its language, its flags and the line it starts on', () => {
    const dir = mkdtempSync(join(tmpdir(), 'guides-'));
    const text = '# T\n\nText.\n\n```sh\necho one\n```\n\n```ts display\nconst two = 2;\n```\n\n```sh fails\nfalse\n```\n';
    writeFileSync(join(dir, 'quickstart.md'), `---\ntitle: T\nsummary: S\n---\n${text}`);
    const [guide] = loadGuides(dir);
    const blocks = codeBlocksOf(guide!);
    assert.deepEqual(
      blocks.map(({ line, language, runnable, fails, source }) => ({ line, language, runnable, fails, source })),
      [
        { line: 5, language: 'sh', runnable: true, fails: false, source: 'echo one\n' },
        { line: 9, language: 'ts', runnable: false, fails: false, source: 'const two = 2;\n' },
        { line: 13, language: 'sh', runnable: true, fails: true, source: 'false\n' },
      ],
    );
    assert.equal(text.split('\n')[blocks[1]!.line - 1], '```ts display');
  });

  it('refuses a guide that is not in the navigation', () => {
    const dir = mkdtempSync(join(tmpdir(), 'guides-'));
    writeFileSync(join(dir, 'stray.md'), '---\ntitle: T\nsummary: S\n---\n# T\n');
    assert.throws(() => loadGuides(dir), /stray/);
  });

  it('the Errors page lists every declared code', () => {
    const page = readFileSync(join(docsDir, guidePath({ name: 'errors' })), 'utf8');
    for (const { code } of errorCodesOf(loadBundle(currentVersion))) {
      assert.ok(page.includes(`<code>${code.replace('<', '&lt;').replace('>', '&gt;')}</code>`), code);
    }
  });

  it('every guide page links every other guide and the references', () => {
    for (const guide of loadGuides()) {
      const page = readFileSync(join(docsDir, guidePath(guide)), 'utf8');
      for (const other of guideOrder) assert.ok(page.includes(`href="../guides/${other}.html"`), `${guide.name} -> ${other}`);
      assert.ok(page.includes(`href="../${currentVersion}.html"`));
    }
  });
});
