// What the build writes for programs and for navigation, read through the docs app as the server serves it:
// llms.txt names every guide and every operation, each of them answers as Markdown; the changelog is dated and
// marks API changes breaking or not; the search index covers every guide; the console knows every operation.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadBundle } from '@aggregation/openapi/contract';
import { Hono } from 'hono';
import { describe, it } from 'vitest';
import { changeItems, readChangesets, readPackageChangelog } from '../src/changelog.ts';
import { diffDocuments } from '../src/diff.ts';
import { documentNames, operationsOf, versions } from '../src/documents.ts';
import { loadGuides } from '../src/guides.ts';
import { docsApp } from '../src/index.ts';
import { docsDir } from '../src/paths.ts';

const app = new Hono();
app.route('/docs', docsApp());
const get = (path: string) => app.request(path);

describe('for programs: llms.txt, llms-full.txt and Markdown', () => {
  it('llms.txt has a title, a summary, and links every guide and every operation of every document', async () => {
    const response = await get('/docs/llms.txt');
    assert.equal(response.status, 200);
    assert.match(response.headers.get('content-type') ?? '', /^text\/plain/);
    const text = await response.text();
    assert.match(text, /^# .+\n\n> .+\n/);
    for (const guide of loadGuides()) assert.ok(text.includes(`](guides/${guide.name}.md)`), guide.name);
    for (const name of documentNames) {
      for (const operation of operationsOf(loadBundle(name))) {
        assert.ok(text.includes(`](reference/${name}/${operation.operationId}.md)`), `${name} ${operation.operationId}`);
      }
    }
  });

  it('every link of llms.txt answers 200, the Markdown ones as text/markdown', async () => {
    const text = await (await get('/docs/llms.txt')).text();
    const links = [...text.matchAll(/\]\(([^)]+)\)/g)].map((match) => match[1]!);
    assert.ok(links.length > 40);
    for (const link of links) {
      const response = await get(`/docs/${link}`);
      assert.equal(response.status, 200, link);
      if (link.endsWith('.md')) assert.equal(response.headers.get('content-type'), 'text/markdown; charset=utf-8', link);
      await response.arrayBuffer();
    }
  });

  it('an operation as Markdown says what it does, its parameters, request and response fields, errors and samples', async () => {
    const text = await (await get('/docs/reference/2020-10-12/createPayment.md')).text();
    for (const heading of ['## Authentication', '## Parameters', '## Request body', '## Responses', '## Errors', '## Samples']) {
      assert.ok(text.includes(`\n${heading}\n`), heading);
    }
    assert.match(text, /^# Make a payment\n/);
    assert.ok(text.includes('| `payee.address` |'), 'nested request fields');
    assert.ok(text.includes('`payments.not_supported`'), 'error codes from the examples');
    for (const language of ['curl', 'TypeScript', 'Python', 'Go', 'Java']) assert.ok(text.includes(`### ${language}\n`), language);
  });

  it('a guide as Markdown keeps its text, with links to other guides pointing at their Markdown', async () => {
    const response = await get('/docs/guides/quickstart.md');
    assert.equal(response.status, 200);
    const text = await response.text();
    assert.match(text, /^# Quickstart\n\n> /);
    assert.ok(text.includes('(sandbox.md#test-users)'));
    assert.doesNotMatch(text, /```\w+ (display|fails)/);
  });

  it('llms-full.txt holds every guide and every operation in full', () => {
    const text = readFileSync(join(docsDir, 'llms-full.txt'), 'utf8');
    for (const guide of loadGuides()) assert.ok(text.includes(`<!-- guides/${guide.name}.md -->\n# ${guide.title}\n`), guide.name);
    for (const name of documentNames) {
      for (const operation of operationsOf(loadBundle(name))) assert.ok(text.includes(`<!-- reference/${name}/${operation.operationId}.md -->`));
    }
  });
});

describe('the changelog', () => {
  const html = readFileSync(join(docsDir, 'changelog.html'), 'utf8');

  it('lists each API version as a dated entry, newest first, with the changes from the version before', () => {
    const dates = [...html.matchAll(/<section class="release" id="[^"]+" data-date="([^"]+)"/g)].map((match) => match[1]!);
    assert.deepEqual(dates, [...versions]);
    const newest = html.slice(html.indexOf(`id="api-${versions[0]}"`));
    assert.match(newest, /class="breaking"><strong>Breaking<\/strong> Account\.currency_code removed/);
    assert.match(newest, /class="compatible"><strong>Not breaking<\/strong> Account\.currency added/);
  });

  it('says where each entry comes from, and lists the pending changesets and the allowed breaking changes undated', () => {
    const unreleased = html.slice(html.indexOf('id="unreleased"'), html.indexOf(`id="api-${versions[0]}"`));
    for (const changeset of readChangesets(join(docsDir, '..', '..', '..', '.changeset')))
      assert.ok(unreleased.includes(`.changeset/${changeset.file}`));
    assert.ok(unreleased.includes('openapi/breaking-changes.yaml'));
    assert.ok(unreleased.includes('Not dated'));
  });

  it('marks removals, type changes and new required fields breaking, additions not', () => {
    const items = changeItems(diffDocuments(loadBundle('2019-07-01'), loadBundle('2020-10-12')), loadBundle('2020-10-12'));
    const find = (text: string) => items.find((item) => item.text.startsWith(text));
    assert.equal(find('Account.institution:')?.breaking, true);
    assert.equal(find('schema TransactionDetails added')?.breaking, false);
    assert.equal(find('schema Balance removed')?.breaking, true);
  });

  it("reads a package's CHANGELOG.md as Changesets writes it", () => {
    const text = '# @aggregation/client\n\n## 0.2.0\n\n### Minor Changes\n\n- abc1234: Retries are safe.\n\n## 0.1.0\n\n- First release.\n';
    assert.deepEqual(readPackageChangelog('@aggregation/client', text), [
      { name: '@aggregation/client', version: '0.2.0', entries: ['abc1234: Retries are safe.'] },
      { name: '@aggregation/client', version: '0.1.0', entries: ['First release.'] },
    ]);
  });

  it('reads pending changesets with their packages', () => {
    const dir = mkdtempSync(join(tmpdir(), 'changesets-'));
    writeFileSync(join(dir, 'README.md'), '# not one');
    writeFileSync(join(dir, 'brave-cats.md'), "---\n'@aggregation/client': minor\n---\n\nAdds paging.\n");
    assert.deepEqual(readChangesets(dir), [{ file: 'brave-cats.md', releases: { '@aggregation/client': 'minor' }, summary: 'Adds paging.' }]);
  });
});

describe('navigation', () => {
  it("the search index covers every guide's sections, each with its page and anchor", () => {
    const index = JSON.parse(readFileSync(join(docsDir, 'search-index.json'), 'utf8')) as { guide: string; href: string; heading: string }[];
    for (const guide of loadGuides()) {
      const sections = index.filter((entry) => entry.href.startsWith(`guides/${guide.name}.html`));
      assert.ok(sections.length > 1, guide.name);
      for (const section of sections.slice(1)) {
        const id = section.href.split('#')[1]!;
        assert.ok(readFileSync(join(docsDir, `guides/${guide.name}.html`), 'utf8').includes(`id="${id}"`), section.href);
      }
    }
  });

  it('every reference page has the version switcher, the guides, the changelog and the console', () => {
    for (const name of documentNames) {
      const html = readFileSync(join(docsDir, `${name}.html`), 'utf8');
      const bar = html.slice(html.indexOf('<header class="docs-bar">'), html.indexOf('</header>', html.indexOf('<header class="docs-bar">')));
      for (const other of documentNames) {
        assert.ok(bar.includes(`href="${other}.html"${other === name ? ' aria-current="page"' : ''}>`), `${name} -> ${other}`);
      }
      for (const guide of loadGuides()) assert.ok(bar.includes(`href="guides/${guide.name}.html"`), `${name} -> ${guide.name}`);
      assert.ok(bar.includes('href="changelog.html"') && bar.includes('href="try/index.html"'), name);
    }
  });

  it('/docs/try redirects to /docs/try/ (keeping the operation), which serves the console with every operation', async () => {
    const redirect = await get('/docs/try?document=2020-10-12&operation=listAccounts');
    assert.equal(redirect.status, 301);
    assert.equal(redirect.headers.get('location'), '/docs/try/?document=2020-10-12&operation=listAccounts');
    const page = await (await get('/docs/try/')).text();
    const data = JSON.parse(/<script type="application\/json" id="console-data">(.*?)<\/script>/s.exec(page)![1]!) as {
      operations: { document: string; operationId: string }[];
    };
    for (const name of documentNames) {
      const ids = data.operations.filter((operation) => operation.document === name).map((operation) => operation.operationId);
      assert.deepEqual(
        ids,
        operationsOf(loadBundle(name)).map((operation) => operation.operationId),
      );
    }
  });
});
