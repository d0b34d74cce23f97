// The versions module is generated from the bundles: each dated document is a version, the newest is current.
import assert from 'node:assert/strict';
import { CURRENT_VERSION, DOCUMENT_NAMES, VERSIONS } from '@aggregation/openapi/versions';
import { test } from 'vitest';
import { versionsOf } from '../scripts/versions.ts';
import { loadBundle } from '../src/contract.ts';

test('the generated module lists every bundle, its dated versions newest first, and the newest as current', () => {
  const documents = DOCUMENT_NAMES.map((name) => ({ name, infoVersion: loadBundle(name).info.version }));
  assert.deepEqual(versionsOf(documents), { documentNames: [...DOCUMENT_NAMES], versions: [...VERSIONS], currentVersion: CURRENT_VERSION });
  for (const version of VERSIONS) assert.equal(loadBundle(version).info.version, version);
  assert.equal(CURRENT_VERSION, VERSIONS[0]);
});

test('a new dated document becomes the current version; the others stay after the versions', () => {
  const documents = [
    { name: 'sandbox', infoVersion: 'sandbox' },
    { name: '2019-07-01', infoVersion: '2019-07-01' },
    { name: '2031-01-15', infoVersion: '2031-01-15' },
  ];
  assert.deepEqual(versionsOf(documents), {
    documentNames: ['2031-01-15', '2019-07-01', 'sandbox'],
    versions: ['2031-01-15', '2019-07-01'],
    currentVersion: '2031-01-15',
  });
});

test('a dated document whose info.version is another date fails the build', () => {
  assert.throws(() => versionsOf([{ name: '2031-01-15', infoVersion: '2030-01-01' }]), /info\.version is 2030-01-01/);
  assert.throws(() => versionsOf([{ name: 'sandbox', infoVersion: 'sandbox' }]), /no document carries a date/);
});
