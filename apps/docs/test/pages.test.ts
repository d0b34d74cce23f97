// The built files: a self-contained page per document, and an index generated from the bundles.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'vitest';
import { currentVersion, documentNames, versions } from '../src/documents.ts';
import { remoteResources } from '../src/offline.ts';
import { docsDir } from '../src/paths.ts';

const read = (file: string) => readFileSync(join(docsDir, file), 'utf8');

describe('pages', () => {
  for (const name of documentNames) {
    it(`${name}.html is self-contained`, () => {
      const html = read(`${name}.html`);
      assert.deepEqual(remoteResources(html), []);
      // No script or stylesheet is fetched: everything is inline.
      assert.doesNotMatch(html, /<script[^>]+src=/);
      assert.doesNotMatch(html, /<link[^>]+rel="stylesheet"/);
      assert.match(html, /<link rel="icon" href="data:/);
    });
  }
});

describe('index.html', () => {
  const html = read('index.html');

  it('links every page, and every link leads to a built file', () => {
    for (const name of documentNames) assert.ok(html.includes(`href="${name}.html"`), name);
    for (const [, href] of html.matchAll(/href="([^"#:]+)"/g)) assert.ok(existsSync(join(docsDir, href!)), href);
  });

  it('lists the versions and says which is current', () => {
    for (const version of versions) assert.ok(html.includes(`data-document="${version}"`), version);
    assert.match(html, new RegExp(`id="current-version">${currentVersion}<`));
    const row = html.slice(html.indexOf(`data-document="${currentVersion}"`));
    assert.match(row.slice(0, row.indexOf('</tr>')), /class="current">current</);
  });

  it('says which file to feed client generators, for every version, and links it', () => {
    const section = html.slice(html.indexOf('<h2 id="clients">'));
    assert.ok(section.length < html.length, 'no Clients in other languages section');
    for (const version of versions) {
      for (const ext of ['json', 'yaml']) assert.ok(section.includes(`href="${version}.generators.${ext}"`), `${version} ${ext}`);
    }
    assert.ok(section.includes(`-i ${currentVersion}.generators.json`));
  });

  it('shows the changes between the versions, the same as changes.json', () => {
    const changes = JSON.parse(read('changes.json')) as { from: string; to: string; schemas: { removed: string[] } }[];
    assert.equal(changes.length, versions.length - 1);
    for (const change of changes) {
      assert.equal(change.to, currentVersion);
      assert.ok(html.includes(`id="changes-${change.from}-${change.to}"`));
      for (const removed of change.schemas.removed) assert.ok(html.includes(`<code>${removed}</code>`), removed);
    }
  });
});
