// The virtualenv of the project's Python tools is kept in the user's cache, under a name that changes with everything
// it is made from, and clients/.venv links to it.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { skipWhenMissing } from '@aggregation/test-support';
import { afterAll, describe, it } from 'vitest';
import { venvDir } from '../src/paths.ts';
import { requirementsFile, toolsCacheDir, toolsVenvDir } from '../src/python.ts';
import { findToolchain, missingTool } from '../src/toolchain.ts';

const toolchain = findToolchain();
const noPython = skipWhenMissing('the tools virtualenv', missingTool('python', toolchain));

describe('the tools cache', () => {
  it('is under $XDG_CACHE_HOME when it is set, else under ~/.cache', () => {
    assert.equal(toolsCacheDir({ XDG_CACHE_HOME: '/somewhere/cache' }), '/somewhere/cache/aggregation-polyglot');
    assert.equal(toolsCacheDir({}), join(homedir(), '.cache', 'aggregation-polyglot'));
    assert.equal(toolsCacheDir({ XDG_CACHE_HOME: '' }), join(homedir(), '.cache', 'aggregation-polyglot'));
  });
});

describe.skipIf(noPython)('the tools virtualenv', () => {
  const scratch = mkdtempSync(join(tmpdir(), 'polyglot-tools-'));
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));

  it('is named after the pins, the Python version and the interpreter, in the cache given', async () => {
    const python = toolchain.python!;
    const dir = await toolsVenvDir(python, scratch);
    assert.match(dir, new RegExp(`^${scratch}/tools-[0-9a-f]{16}$`));
    assert.equal(await toolsVenvDir(python, scratch), dir, 'the same inputs name the same virtualenv');
  });

  it('changes with a pin', async () => {
    const repinned = join(scratch, 'requirements.txt');
    writeFileSync(repinned, readFileSync(requirementsFile, 'utf8').replace(/^httpx==.*$/m, 'httpx==0.27.2'));
    const dir = await toolsVenvDir(toolchain.python!, scratch);
    assert.notEqual(await toolsVenvDir(toolchain.python!, scratch, repinned), dir);
  });

  it('is what clients/.venv links to once the clients are generated', async () => {
    assert.equal(realpathSync(venvDir), realpathSync(await toolsVenvDir(toolchain.python!)));
  });
});
