// A generated client kept in the tools cache under the hash of its inputs comes back into a clean checkout for the same
// hash only; keeping a newer one drops the older; a folder other outputs share keeps only what it names. A record of
// checks passed, or a compiled client, is keyed by its inputs and by the toolchain that checked or compiled it.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, it } from 'vitest';
import { moduleHash } from '../src/go-module.ts';
import { kotlinBuildHash } from '../src/matrix.ts';
import { javaClientHash, typescriptFetchInputs } from '../src/openapi-generator-builds.ts';
import { hashFiles, isUpToDate, isUpToDateOrKept, keptClientsDir, markUpToDateAndKeep, stampFile } from '../src/stamp.ts';

describe('generated clients kept between checkouts', () => {
  const root = mkdtempSync(join(tmpdir(), 'polyglot-kept-'));
  const cache = join(root, 'cache');
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  /** A generated folder `name` in a checkout of its own: `files` written, relative to it. */
  function generated(checkout: string, name: string, files: Record<string, string>): string {
    const dir = join(root, checkout, name);
    for (const [file, text] of Object.entries(files)) {
      mkdirSync(join(dir, file, '..'), { recursive: true });
      writeFileSync(join(dir, file), text);
    }
    return dir;
  }

  it('the same inputs in another checkout hash the same; another name or content does not', () => {
    const files = { 'spec.json': '{}', 'config/gen.yaml': 'a: 1' };
    const [first, second] = [generated('inputs-a', 'repo', files), generated('inputs-b', 'repo', files)];
    const hash = (checkout: string, names = Object.keys(files), extra?: string[]) =>
      hashFiles(
        names.map((name) => join(checkout, name)),
        { root: checkout, extra },
      );
    assert.equal(hash(first), hash(second));
    assert.notEqual(hash(first), hash(first, ['config/gen.yaml', 'spec.json']));
    assert.notEqual(hash(first), hash(first, undefined, ['tool 1']));
    assert.notEqual(hash(first, undefined, ['tool 1']), hash(first, undefined, ['tool 2']));
    writeFileSync(join(second, 'spec.json'), '{ }');
    assert.notEqual(hash(first), hash(second));
  });

  it("a file outside the checkout (a tool's jar) hashes the same from checkouts at different depths", () => {
    const files = { 'spec.json': '{}' };
    const tool = generated('tools', 'maven', { 'generator.jar': 'jar 1' });
    const [shallow, deep] = [generated('depth-a', 'repo', files), generated('depth-b/nested', 'repo', files)];
    const hash = (checkout: string) => hashFiles([join(checkout, 'spec.json'), join(tool, 'generator.jar')], { root: checkout });
    const before = hash(shallow);
    assert.equal(hash(deep), before);
    writeFileSync(join(tool, 'generator.jar'), 'jar 2');
    assert.notEqual(hash(shallow), before, "the tool's contents still count");
  });

  it('a Go module is checked again when any of its files or the Go that checks it changed, and only then', () => {
    const files = { 'go.mod': 'module example', 'client.gen.go': 'package a', 'testdata/vectors.json': '[]' };
    const module = generated('go-module', 'module', files);
    const key = moduleHash(module, 'go1.25.0');
    assert.equal(moduleHash(generated('go-module-copy', 'module', files), 'go1.25.0'), key);
    assert.notEqual(moduleHash(module, 'go1.25.1'), key);
    writeFileSync(join(module, 'testdata', 'vectors.json'), '[{}]');
    assert.notEqual(moduleHash(module, 'go1.25.0'), key);
    writeFileSync(join(module, 'testdata', 'vectors.json'), '[]');
    assert.equal(moduleHash(module, 'go1.25.0'), key);
    writeFileSync(join(module, 'README.md'), '');
    assert.notEqual(moduleHash(module, 'go1.25.0'), key);
  });

  it('the compiled Java and Kotlin clients are kept for the generation and the JDK that compiled them', () => {
    const client = generated('kotlin-build', 'kotlin', { '.generated-from': 'generation 1' });
    const [java, kotlin] = [(jdk: string) => javaClientHash(jdk, stampFile(client)), (jdk: string) => kotlinBuildHash(client, jdk)];
    for (const key of [java, kotlin]) {
      assert.equal(key('javac 21.0.5'), key('javac 21.0.5'));
      assert.notEqual(key('javac 17.0.15'), key('javac 21.0.5'));
    }
    const before = [java('javac 21.0.5'), kotlin('javac 21.0.5')];
    writeFileSync(stampFile(client), 'generation 2');
    assert.notEqual(java('javac 21.0.5'), before[0]);
    assert.notEqual(kotlin('javac 21.0.5'), before[1]);
  });

  it("typescript-fetch's check and smoke build are kept for the generation, the compiler and the smoke program's sources", () => {
    const client = generated('typescript-fetch-build', 'openapi-generator', { '.generated-from': 'generation 1' });
    const inputs = typescriptFetchInputs(stampFile(client));
    for (const input of inputs) assert.ok(existsSync(input), input);
    for (const file of [
      'typescript/package.json',
      '@types/node/package.json',
      'typescript-fetch/smoke.ts',
      'typescript-fetch/tsconfig.json',
      'typescript/scenario.ts',
    ]) {
      assert.ok(
        inputs.some((input) => input.endsWith(`/${file}`)),
        file,
      );
    }
    const before = hashFiles(inputs);
    writeFileSync(stampFile(client), 'generation 2');
    assert.notEqual(hashFiles(inputs), before);
  });

  it('a clean checkout gets the kept copy for the same hash, and generates for any other', () => {
    markUpToDateAndKeep(generated('first', 'python', { 'client/api.py': 'v1' }), 'aaa', undefined, cache);
    const clean = join(root, 'second', 'python');
    assert.equal(isUpToDateOrKept(clean, 'bbb', cache), false);
    assert.equal(existsSync(clean), false);
    assert.equal(isUpToDateOrKept(clean, 'aaa', cache), true);
    assert.equal(readFileSync(join(clean, 'client', 'api.py'), 'utf8'), 'v1');
    assert.ok(isUpToDate(clean, 'aaa'));
  });

  it('keeping a copy for a new hash drops the one kept for the old hash of the same output', () => {
    markUpToDateAndKeep(generated('third', 'python', { 'client/api.py': 'v2' }), 'ccc', undefined, cache);
    assert.deepEqual(
      readdirSync(keptClientsDir(cache)).filter((entry) => entry.startsWith('python.')),
      ['python.ccc'],
    );
    assert.equal(isUpToDateOrKept(join(root, 'fourth', 'python'), 'aaa', cache), false);
  });

  it('only the entries named are kept, and restoring leaves the folder’s other outputs in place', () => {
    const dir = generated('fifth', 'shared', { 'java/A.java': 'a', 'generation.log': 'log', 'rust/lib.rs': 'matrix' });
    markUpToDateAndKeep(dir, 'ddd', ['java', 'generation.log'], cache);
    const other = generated('sixth', 'shared', { 'java/A.java': 'stale', 'rust/lib.rs': 'own' });
    assert.equal(isUpToDateOrKept(other, 'ddd', cache), true);
    assert.equal(readFileSync(join(other, 'java', 'A.java'), 'utf8'), 'a');
    assert.equal(readFileSync(join(other, 'generation.log'), 'utf8'), 'log');
    assert.equal(readFileSync(join(other, 'rust', 'lib.rs'), 'utf8'), 'own');
    assert.equal(existsSync(join(keptClientsDir(cache), 'shared.ddd', 'rust')), false);
  });
});
