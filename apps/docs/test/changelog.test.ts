// The changelog built from a repository of its own (a changeset, a package's CHANGELOG.md, a released snapshot that
// the bundle has moved from, an allowed breaking change) and rendered: what each section holds, in which order.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadBundle, type OpenApiDocument } from '@aggregation/openapi/contract';
import { afterAll, describe, it } from 'vitest';
import { buildChangelog, renderChangelog } from '../src/changelog.ts';

const root = mkdtempSync(join(tmpdir(), 'changelog-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const newer = loadBundle('2020-10-12');
const older = loadBundle('2019-07-01');
// The released snapshot of the newer version lacks one operation the bundle now has.
const released = structuredClone(newer) as OpenApiDocument & { paths: Record<string, unknown> };
delete released.paths['/institutions'];

mkdirSync(join(root, '.changeset'));
mkdirSync(join(root, 'released'));
mkdirSync(join(root, 'packages', 'client'), { recursive: true });
writeFileSync(join(root, '.changeset', 'calm-owls.md'), "---\n'@aggregation/client': minor\n---\n\nPayees take an <Idempotency-Key>.\n");
writeFileSync(join(root, 'released', '2020-10-12.json'), JSON.stringify(released));
writeFileSync(
  join(root, 'breaking-changes.yaml'),
  'allowed:\n  - version: "2020-10-12"\n    id: response-body-wrapped-in-one-of\n    operation: POST\n    path: /accounts/{account_id}/payments\n    reason: The same bodies are sent.\n',
);
writeFileSync(join(root, 'packages', 'client', 'CHANGELOG.md'), '# @aggregation/client\n\n## 0.2.0\n\n- abc1234: Retries are safe.\n\n## 0.1.0\n');

const releases = buildChangelog({
  repoRoot: root,
  versions: [
    { name: '2020-10-12', bundle: newer },
    { name: '2019-07-01', bundle: older },
  ],
  releasedDir: join(root, 'released'),
  allowancesFile: join(root, 'breaking-changes.yaml'),
  changesetDir: join(root, '.changeset'),
  packageChangelogs: [{ name: '@aggregation/client', file: join(root, 'packages', 'client', 'CHANGELOG.md') }],
});

describe('buildChangelog', () => {
  it('orders the sections: pending changes, then package releases with entries, then API versions newest first', () => {
    assert.deepEqual(
      releases.map((release) => [release.id, release.date]),
      [
        ['unreleased', undefined],
        ['@aggregation/client@0.2.0', undefined],
        ['api-2020-10-12', '2020-10-12'],
        ['api-2019-07-01', '2019-07-01'],
      ],
    );
  });

  it('holds the changesets, the changes since the released snapshot, and the allowed breaking changes with their reasons', () => {
    const unreleased = releases[0]!;
    assert.deepEqual(unreleased.sources, [
      '.changeset/calm-owls.md',
      'released/2020-10-12.json compared with the 2020-10-12 bundle',
      'breaking-changes.yaml',
    ]);
    assert.deepEqual(unreleased.notes, ['Payees take an <Idempotency-Key>. Packages: @aggregation/client (minor).']);
    assert.ok(unreleased.items.some((item) => !item.breaking && item.text.startsWith('2020-10-12: GET /institutions') && item.text.endsWith('added')));
    assert.ok(
      unreleased.items.some(
        (item) =>
          item.breaking &&
          item.text === '2020-10-12: response-body-wrapped-in-one-of on POST /accounts/{account_id}/payments (allowed: The same bodies are sent.)',
      ),
    );
  });

  it('compares each API version with the one before it; the oldest says there is none', () => {
    const [, , current, oldest] = releases;
    assert.ok(current!.items.some((item) => item.breaking));
    assert.ok(current!.sources.includes('released/2020-10-12.json (released snapshot)'));
    assert.deepEqual(oldest!.items, []);
    assert.match(oldest!.notes[0]!, /oldest version/);
  });
});

describe('renderChangelog', () => {
  const html = renderChangelog(releases);

  it('dates only the API versions, and says the others are not dated', () => {
    assert.deepEqual(
      [...html.matchAll(/<section class="release" id="([^"]+)"( data-date="[^"]+")?/g)].map((match) => [match[1], Boolean(match[2])]),
      [
        ['unreleased', false],
        ['@aggregation/client@0.2.0', false],
        ['api-2020-10-12', true],
        ['api-2019-07-01', true],
      ],
    );
    assert.match(html, /<h2><time datetime="2020-10-12">2020-10-12<\/time>: API version 2020-10-12<\/h2>/);
    assert.equal(html.match(/Not dated: no source records a date for it\./g)?.length, 2);
  });

  it('counts and marks the breaking changes, and escapes what the sources wrote', () => {
    const unreleased = html.slice(html.indexOf('id="unreleased"'), html.indexOf('id="@aggregation/client@0.2.0"'));
    const breaking = releases[0]!.items.filter((item) => item.breaking).length;
    assert.ok(unreleased.includes(`<p>${breaking} breaking, ${releases[0]!.items.length - breaking} not breaking.</p>`));
    assert.ok(unreleased.includes('Payees take an &lt;Idempotency-Key&gt;.'));
    assert.ok(!html.includes('<Idempotency-Key>'));
  });
});
