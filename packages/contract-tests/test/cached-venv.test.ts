// The cached virtualenv of pinned Python tools (shared with apps/polyglot): made once by concurrent runs, in other
// processes too, and never used half made.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import {
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  realpathSync,
  rmSync,
  statSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { promisify } from 'node:util';
import { skipWhenMissing, which } from '@aggregation/test-support';
import { afterAll, describe, it } from 'vitest';
import { type CachedVenvSpec, cachedVenvDir, ensureCachedVenv } from '../src/cached-venv.ts';

const run = promisify(execFile);
const python = which('python3');
const noPython = skipWhenMissing('the cached virtualenv', !python && 'python3 is not on PATH');

describe.skipIf(noPython)('a cached virtualenv', () => {
  const scratch = mkdtempSync(join(tmpdir(), 'cached-venv-'));
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));
  // No pins: what is tested is the making, not pip's download.
  const requirements = join(scratch, 'requirements.txt');
  writeFileSync(requirements, '# nothing pinned\n');
  const spec = { python: python!, requirements, cacheDir: join(scratch, 'cache'), name: 'tools' } satisfies CachedVenvSpec;

  it('is named after the pins, the Python version and the interpreter', async () => {
    const dir = await cachedVenvDir(spec);
    assert.match(dir, new RegExp(`^${spec.cacheDir}/tools-[0-9a-f]{16}$`));
    assert.equal(await cachedVenvDir({ ...spec, python: 'python3' }), dir, 'a bare name is keyed by the interpreter it finds');
    const repinned = join(scratch, 'repinned.txt');
    writeFileSync(repinned, 'httpx==0.28.1\n');
    assert.notEqual(await cachedVenvDir({ ...spec, requirements: repinned }), dir);
  });

  it('is made once by two runs at the same time, in place of what a killed run left half made', async () => {
    const dir = await cachedVenvDir(spec);
    // Left by killed runs: one made in place and never marked complete, and the directory of an unfinished making.
    mkdirSync(join(dir, 'bin'), { recursive: true });
    writeFileSync(join(dir, 'half-made'), '');
    const unfinished = `${dir}.4242.1`;
    mkdirSync(join(unfinished, 'bin'), { recursive: true });

    const installs: string[] = [];
    const [here, other] = await Promise.all([
      ensureCachedVenv({ ...spec, log: (line) => installs.push(line) }),
      // The other run is another process, as two test runs or builds are.
      run(process.execPath, [
        '--input-type=module',
        '-e',
        `import { ensureCachedVenv } from ${JSON.stringify(join(import.meta.dirname, '..', 'src', 'cached-venv.ts'))};
         const venv = await ensureCachedVenv({ ...${JSON.stringify(spec)}, log: (line) => console.log(line) });
         console.log(JSON.stringify(venv));`,
      ]),
    ]);
    const otherLines = other.stdout.trim().split('\n');
    const otherVenv = JSON.parse(otherLines.pop()!);
    installs.push(...otherLines);

    assert.deepEqual(otherVenv, here);
    assert.equal(installs.length, 1, `one install, not ${installs.join(' | ')}`);
    assert.equal(here.dir, dir);
    assert.ok(existsSync(join(dir, '.complete')));
    assert.ok(lstatSync(dir).isSymbolicLink(), 'put in place as a link to the made virtualenv');
    assert.ok(!existsSync(join(dir, 'half-made')), 'the half-made virtualenv is not used');
    assert.ok(!existsSync(unfinished), 'the unfinished making is removed');
    const made = readdirSync(spec.cacheDir).filter((entry) => entry.startsWith(`${basename(dir)}.`));
    assert.deepEqual(made, [basename(realpathSync(dir))], 'one virtualenv made, and no lock left');
    const { stdout: prefix } = await run(here.python, ['-c', 'import sys; print(sys.prefix)']);
    assert.equal(realpathSync(prefix.trim()), realpathSync(dir), "the virtualenv's python runs in it");

    // Complete now: the next run uses it as it is.
    const again: string[] = [];
    assert.deepEqual(await ensureCachedVenv({ ...spec, log: (line) => again.push(line) }), here);
    assert.deepEqual(again, []);
  });

  it("marks its use, and removes the same name's virtualenvs that went unused for five days, and only those", async () => {
    const dir = (await ensureCachedVenv(spec)).dir;
    const daysAgo = (days: number) => new Date(Date.now() - days * 24 * 60 * 60_000);
    /** A complete virtualenv of `name` (a link to where it was made), last used `days` ago. */
    const kept = (name: string, days: number) => {
      const link = join(spec.cacheDir, name);
      mkdirSync(`${link}.1.1`);
      writeFileSync(join(`${link}.1.1`, '.complete'), '');
      symlinkSync(`${name}.1.1`, link);
      utimesSync(join(link, '.complete'), daysAgo(days), daysAgo(days));
      return link;
    };
    const old = kept('tools-0123456789abcdef', 6);
    const recent = kept('tools-fedcba9876543210', 4);
    const otherName = kept('other-0123456789abcdef', 30);
    utimesSync(join(dir, '.complete'), daysAgo(10), daysAgo(10));

    await ensureCachedVenv(spec);
    assert.ok(Date.now() - statSync(join(dir, '.complete')).mtimeMs < 60 * 60_000, 'the run marked its use');
    assert.ok(!existsSync(old) && !existsSync(`${old}.1.1`), 'unused for six days: the link and what it names are gone');
    assert.ok(existsSync(join(recent, '.complete')), 'used four days ago: kept');
    assert.ok(existsSync(join(otherName, '.complete')), "another name's: left to its own runs");
    assert.ok(existsSync(join(dir, 'bin', 'python')));
  });
});
