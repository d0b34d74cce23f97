// The breaking-change gate. Each released dated version's description is kept in released/<version>.json (a
// snapshot committed when it is released: `npm run snapshot -w @aggregation/openapi`). A bundle may not break a
// client written against its released snapshot, unless the change is listed, with its reason, in
// breaking-changes.yaml, which the changelog cites.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse, stringify } from 'yaml';
import { distDir, versions } from '../src/contract.ts';
import { BREAKING, breakingChanges, type OasdiffFinding } from './oasdiff.ts';

const packageDir = join(import.meta.dirname, '..');
export const releasedDir = join(packageDir, 'released');
export const allowanceFile = join(packageDir, 'breaking-changes.yaml');

/** One allowed breaking change: which version, oasdiff's rule id, where, and why it is acceptable. */
export type AllowedChange = { version: string; id: string; operation?: string; path?: string; text?: string; reason: string };

export function readAllowances(): AllowedChange[] {
  const file = parse(readFileSync(allowanceFile, 'utf8')) as { allowed?: AllowedChange[] | null } | null;
  const allowed = file?.allowed ?? [];
  for (const entry of allowed) {
    if (!entry.version || !entry.id || typeof entry.reason !== 'string' || !entry.reason.trim()) {
      throw new Error(`${allowanceFile}: every entry needs version, id and a reason: ${JSON.stringify(entry)}`);
    }
  }
  return allowed;
}

function allows(entry: AllowedChange, version: string, finding: OasdiffFinding): boolean {
  return (
    entry.version === version &&
    entry.id === finding.id &&
    (entry.operation === undefined || entry.operation === finding.operation) &&
    (entry.path === undefined || entry.path === finding.path) &&
    (entry.text === undefined || entry.text === finding.text)
  );
}

export type VersionCheck = { version: string; released: boolean; breaking: OasdiffFinding[]; unallowed: OasdiffFinding[] };

/** Each dated version against its released snapshot, if it has one. */
export async function checkReleasedVersions(allowed = readAllowances()): Promise<VersionCheck[]> {
  const checks: VersionCheck[] = [];
  for (const version of versions) {
    const snapshot = join(releasedDir, `${version}.json`);
    if (!existsSync(snapshot)) {
      checks.push({ version, released: false, breaking: [], unallowed: [] });
      continue;
    }
    const breaking = (await breakingChanges(snapshot, join(distDir, `${version}.json`))).filter((finding) => finding.level >= BREAKING);
    const unallowed = breaking.filter((finding) => !allowed.some((entry) => allows(entry, version, finding)));
    checks.push({ version, released: true, breaking, unallowed });
  }
  return checks;
}

/** What to add to breaking-changes.yaml to allow these changes, with the reason still to be written. */
export function allowanceEntries(checks: VersionCheck[]): string {
  const entries = checks.flatMap(({ version, unallowed }) =>
    unallowed.map((finding) => ({
      version,
      id: finding.id,
      ...(finding.operation ? { operation: finding.operation } : {}),
      ...(finding.path ? { path: finding.path } : {}),
      text: finding.text,
      reason: 'TODO: why integrators of this released version are not broken by it, or what they were told',
    })),
  );
  return stringify(entries, { lineWidth: 0 });
}
