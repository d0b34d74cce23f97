// The breaking-change gate: every dated bundle against its released snapshot, with oasdiff (see
// scripts/breaking-changes.ts). A breaking change fails unless breaking-changes.yaml allows it with a reason.
import assert from 'node:assert/strict';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { skipWhenMissing } from '@aggregation/test-support';
import { describe, it } from 'vitest';
import { allowanceEntries, allowanceFile, checkReleasedVersions, readAllowances, releasedDir } from '../scripts/breaking-changes.ts';
import { BREAKING, breakingChanges, oasdiffMissing } from '../scripts/oasdiff.ts';
import { distDir, versions } from '../src/contract.ts';

const skip = skipWhenMissing('the breaking-change gate', oasdiffMissing());

describe.skipIf(skip)('breaking changes to released versions', () => {
  it('every dated version has a released snapshot', () => {
    for (const version of versions) assert.doesNotThrow(() => readFileSync(join(releasedDir, `${version}.json`)), `released/${version}.json`);
  });

  it('no bundle breaks its released version, beyond what breaking-changes.yaml allows', async () => {
    const checks = await checkReleasedVersions();
    const unallowed = checks.flatMap((check) =>
      check.unallowed.map((finding) => `${check.version}: ${finding.operation ?? ''} ${finding.path ?? ''} ${finding.text}`),
    );
    assert.deepEqual(
      unallowed,
      [],
      `Breaking changes to released versions. Undo them, or add these entries to openapi/${basename(allowanceFile)} under \`allowed:\`, each with its reason:\n${allowanceEntries(checks)}`,
    );
  });

  it('every allowance names a version with a snapshot and gives a reason', () => {
    for (const entry of readAllowances()) assert.ok((versions as readonly string[]).includes(entry.version), `${entry.version} is not a dated version`);
  });

  it('catches a breaking change: an operation removed from a copy of the released version', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'breaking-'));
    try {
      const released = join(dir, 'released.json');
      copyFileSync(join(distDir, '2020-10-12.json'), released);
      const changed = JSON.parse(readFileSync(released, 'utf8')) as { paths: Record<string, unknown> };
      delete changed.paths['/institutions'];
      writeFileSync(join(dir, 'changed.json'), JSON.stringify(changed));
      const findings = (await breakingChanges(released, join(dir, 'changed.json'))).filter((finding) => finding.level >= BREAKING);
      assert.deepEqual(
        findings.map((finding) => [finding.id, finding.operation, finding.path]),
        [['api-path-removed-without-deprecation', 'GET', '/institutions']],
      );
      const message = allowanceEntries([{ version: '2020-10-12', released: true, breaking: findings, unallowed: findings }]);
      assert.match(message, /- version: 2020-10-12\n {2}id: api-path-removed-without-deprecation\n {2}operation: GET\n {2}path: \/institutions\n/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
