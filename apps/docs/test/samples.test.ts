// Every operation of every document carries a sample per language, in the bundles the pages render.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadBundle } from '@aggregation/openapi/contract';
import { describe, it } from 'vitest';
import { decorate } from '../src/decorate.ts';
import { currentVersion, documentNames, type OpenApiDocument, operationsOf } from '../src/documents.ts';
import { docsDir } from '../src/paths.ts';
import { HardCodedHostError, languages, languagesOf, MissingSamplesError, samplesDir } from '../src/samples.ts';

type CodeSample = { lang: string; label: string; source: string };

function built(name: string): OpenApiDocument {
  return JSON.parse(readFileSync(join(docsDir, `${name}.json`), 'utf8')) as OpenApiDocument;
}

describe('code samples in the built documents', () => {
  for (const name of documentNames) {
    it(`${name}: every operation has a sample in each of its page's languages (five on a version's page)`, () => {
      const operations = operationsOf(built(name));
      assert.equal(operations.length, operationsOf(loadBundle(name)).length);
      for (const operation of operations) {
        const samples = operation.operation['x-codeSamples'] as CodeSample[] | undefined;
        assert.deepEqual(
          samples?.map((sample) => sample.lang),
          languagesOf(name).map((language) => language.lang),
          operation.operationId,
        );
        for (const sample of samples ?? []) assert.ok(sample.source.trim().length > 0, `${operation.operationId} ${sample.lang}`);
      }
    });
  }

  it("each operation links the console with it chosen, its Markdown and the changelog, in the docs' copy only", () => {
    for (const name of documentNames) {
      for (const operation of operationsOf(built(name))) {
        const description = String(operation.operation.description);
        assert.ok(description.includes(`(try/?document=${name}&operation=${operation.operationId})`), operation.operationId);
        assert.ok(description.includes(`(reference/${name}/${operation.operationId}.md)`), operation.operationId);
        assert.ok(description.includes('(changelog.html)'), operation.operationId);
      }
    }
  });

  it('the older version shows the samples pinned to itself', () => {
    const older = operationsOf(built('2019-07-01')).find((operation) => operation.operationId === 'listAccounts');
    const samples = older?.operation['x-codeSamples'] as CodeSample[];
    for (const sample of samples) {
      assert.ok(sample.source.includes('2019-07-01'), sample.lang);
      assert.ok(!sample.source.includes(currentVersion), sample.lang);
    }
  });

  it('the bundles themselves stay without samples', () => {
    for (const name of documentNames) {
      for (const operation of operationsOf(loadBundle(name))) assert.equal(operation.operation['x-codeSamples'], undefined);
    }
  });

  it('every sample file belongs to an operation', () => {
    const ids = new Set(documentNames.flatMap((name) => operationsOf(loadBundle(name)).map((operation) => operation.operationId)));
    for (const language of languages) {
      for (const file of readdirSync(join(samplesDir, language.id), { recursive: true }).map(String)) {
        if (!file.endsWith(`.${language.ext}`)) continue;
        assert.ok(
          ids.has(
            file
              .slice(0, -language.ext.length - 1)
              .split('/')
              .at(-1)!,
          ),
          `${language.id}/${file} names no operation`,
        );
      }
    }
  });
});

describe('decorate', () => {
  const bundle = {
    openapi: '3.1.0',
    info: { title: 'T', version: '2019-07-01' },
    paths: { '/a': { get: { operationId: 'getA', responses: {} } } },
  } as OpenApiDocument;

  it('names every missing sample file', () => {
    const empty = mkdtempSync(join(tmpdir(), 'samples-'));
    assert.throws(
      () => decorate('2019-07-01', bundle, empty),
      (error: unknown) => error instanceof MissingSamplesError && error.missing.length === languagesOf('2019-07-01').length,
    );
  });

  it('names every sample that calls a host of its own instead of AGGREGATION_BASE_URL', () => {
    const dir = mkdtempSync(join(tmpdir(), 'samples-'));
    for (const language of languages) {
      mkdirSync(join(dir, language.id), { recursive: true });
      writeFileSync(join(dir, language.id, `getA.${language.ext}`), language.id === 'curl' ? 'curl http://localhost:3000/a' : 'AGGREGATION_BASE_URL');
    }
    assert.throws(
      () => decorate('2019-07-01', bundle, dir),
      (error: unknown) => error instanceof HardCodedHostError && error.files.length === 1 && error.files[0]!.endsWith('getA.sh'),
    );
  });

  it('prefers a sample written for the version over the shared one', () => {
    const dir = mkdtempSync(join(tmpdir(), 'samples-'));
    for (const language of languages) {
      mkdirSync(join(dir, language.id, '2019-07-01'), { recursive: true });
      writeFileSync(join(dir, language.id, `getA.${language.ext}`), `shared ${currentVersion} AGGREGATION_BASE_URL`);
    }
    writeFileSync(join(dir, 'python', '2019-07-01', 'getA.py'), 'own AGGREGATION_BASE_URL');
    const { document, samples } = decorate('2019-07-01', bundle, dir);
    assert.deepEqual(
      samples.map((sample) => sample.source.trim()),
      [
        'shared 2019-07-01 AGGREGATION_BASE_URL',
        'shared 2019-07-01 AGGREGATION_BASE_URL',
        'own AGGREGATION_BASE_URL',
        'shared 2019-07-01 AGGREGATION_BASE_URL',
        'shared 2019-07-01 AGGREGATION_BASE_URL',
      ],
    );
    assert.equal((document.paths?.['/a']?.get?.['x-codeSamples'] as CodeSample[] | undefined)?.length, languages.length);
    assert.equal(bundle.paths?.['/a']?.get?.['x-codeSamples'], undefined);
  });
});
