// The dated changelog (changelog.html), newest first, from what the repository records and nothing else:
//   - pending changesets (.changeset/*.md): what the next release of the packages holds, not dated yet;
//   - the packages' CHANGELOG.md, written by `changeset version` at each release (Changesets records no date);
//   - for each released API version, the changes made to its description since its snapshot (openapi/released/),
//     and the breaking ones allowed with their reasons (openapi/breaking-changes.yaml);
//   - each API version, dated by its name (`info.version`), with what changed from the version before it, computed
//     by diff.ts and marked breaking or not.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { type OpenApiDocument, operationsOf } from '@aggregation/openapi/contract';
import { parse } from 'yaml';
import { type Changes, diffDocuments, type OperationKey, type ShapeChange } from './diff.ts';
import { escapeHtml } from './html.ts';

export type ChangeItem = { text: string; breaking: boolean };

/** One section of the changelog; `date` only where a source records one. */
export type Release = { id: string; title: string; date: string | undefined; sources: string[]; notes: string[]; items: ChangeItem[] };

const operationName = (operation: OperationKey) =>
  `${operation.method.toUpperCase()} ${operation.path}${operation.operationId ? ` (${operation.operationId})` : ''}`;
const shape = (change: ShapeChange) => `${change.from} → ${change.to}${change.via.length ? `, through ${change.via.join(', ')}` : ''}`;

/**
 * The changes between two versions as items, each marked breaking when code written against `from` can fail on
 * `to`: anything removed, a type or shape changed, a field or parameter that became required, a field that became
 * optional (a reader may rely on it). Additions are not breaking, except a required parameter.
 */
export function changeItems(changes: Changes, to: OpenApiDocument): ChangeItem[] {
  const items: ChangeItem[] = [];
  const add = (breaking: boolean, text: string) => items.push({ text, breaking });
  for (const name of changes.schemas.added) add(false, `schema ${name} added`);
  for (const name of changes.schemas.removed) add(true, `schema ${name} removed`);
  for (const schema of changes.schemas.changed) {
    if (schema.type) add(true, `${schema.name}: type ${schema.type.from} → ${schema.type.to}`);
    for (const property of schema.properties.added) add(false, `${schema.name}.${property.name} added (${property.type})`);
    for (const property of schema.properties.removed) add(true, `${schema.name}.${property.name} removed (${property.type})`);
    for (const property of schema.properties.changed) add(true, `${schema.name}.${property.name}: ${property.from} → ${property.to}`);
    for (const name of schema.required.added) add(true, `${schema.name}.${name} is now required`);
    for (const name of schema.required.removed) add(true, `${schema.name}.${name} is now optional`);
  }
  const parametersOf = new Map(operationsOf(to).map((operation) => [`${operation.method} ${operation.path}`, operation.parameters]));
  for (const operation of changes.operations.added) add(false, `${operationName(operation)} added`);
  for (const operation of changes.operations.removed) add(true, `${operationName(operation)} removed`);
  for (const operation of changes.operations.changed) {
    const name = operationName(operation);
    const parameters = parametersOf.get(`${operation.method} ${operation.path}`) ?? [];
    for (const key of operation.parameters.added) {
      const required = parameters.some((parameter) => `${parameter.in} ${parameter.name}` === key && parameter.required);
      add(required, `${name}: ${required ? 'required' : 'optional'} parameter ${key} added`);
    }
    for (const key of operation.parameters.removed) add(true, `${name}: parameter ${key} removed`);
    for (const change of operation.parameters.changed) add(true, `${name}: parameter ${change.name} ${shape(change)}`);
    if (operation.requestBody) add(true, `${name}: request body ${shape(operation.requestBody)}`);
    for (const status of operation.responses.added) add(false, `${name}: response ${status} added`);
    for (const status of operation.responses.removed) add(true, `${name}: response ${status} removed`);
    for (const change of operation.responses.changed) add(true, `${name}: response ${change.name} ${shape(change)}`);
    if (operation.security) add(true, `${name}: security ${operation.security.from} → ${operation.security.to}`);
  }
  for (const name of changes.webhooks.added) add(false, `event ${name} added`);
  for (const name of changes.webhooks.removed) add(true, `event ${name} removed`);
  for (const hook of changes.webhooks.changed) add(true, `event ${hook.name}: payload ${shape(hook.payload)}`);
  for (const name of changes.securitySchemes.added) add(false, `security scheme ${name} added`);
  for (const name of changes.securitySchemes.removed) add(true, `security scheme ${name} removed`);
  for (const scheme of changes.securitySchemes.changed) add(true, `security scheme ${scheme.name}: ${scheme.from} → ${scheme.to}`);
  if (changes.security) add(true, `security requirements ${changes.security.from} → ${changes.security.to}`);
  return items;
}

export type Changeset = { file: string; releases: Record<string, string>; summary: string };

/** The pending changesets of a `.changeset` folder (every Markdown file but its README). */
export function readChangesets(dir: string): Changeset[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((file) => file.endsWith('.md') && file !== 'README.md')
    .sort()
    .map((file) => {
      const text = readFileSync(join(dir, file), 'utf8');
      const match = /^---\n([\s\S]*?)\n---\n?([\s\S]*)$/.exec(text);
      if (!match) throw new Error(`${file}: not a changeset (no front matter)`);
      return { file, releases: (parse(match[1]!) ?? {}) as Record<string, string>, summary: match[2]!.trim() };
    });
}

export type PackageRelease = { name: string; version: string; entries: string[] };

/** The releases a package's CHANGELOG.md lists, as `changeset version` writes it: `## <version>`, then `- <entry>`. */
export function readPackageChangelog(name: string, text: string): PackageRelease[] {
  const releases: PackageRelease[] = [];
  for (const section of text.split(/^## /m).slice(1)) {
    const [heading = '', ...rest] = section.split('\n');
    const entries = rest
      .join('\n')
      .split(/^- /m)
      .slice(1)
      .map((entry) => entry.trim().replace(/\s+/g, ' '));
    releases.push({ name, version: heading.trim(), entries });
  }
  return releases;
}

/** A breaking change allowed to a released version (openapi/breaking-changes.yaml). */
export type Allowance = { version: string; id: string; operation?: string; path?: string; reason: string };

export type ChangelogSources = {
  repoRoot: string;
  /** The dated versions, newest first, with their bundles. */
  versions: readonly { name: string; bundle: OpenApiDocument }[];
  /** `openapi/released/<version>.json`, where a released snapshot is kept. */
  releasedDir: string;
  allowancesFile: string;
  changesetDir: string;
  /** Each package's CHANGELOG.md that exists, by package name. */
  packageChangelogs: readonly { name: string; file: string }[];
};

export function buildChangelog(sources: ChangelogSources): Release[] {
  const where = (file: string) => relative(sources.repoRoot, file);
  const releases: Release[] = [];

  const changesets = readChangesets(sources.changesetDir);
  const allowances = existsSync(sources.allowancesFile)
    ? ((parse(readFileSync(sources.allowancesFile, 'utf8')) as { allowed?: Allowance[] } | null)?.allowed ?? [])
    : [];
  const unreleased: Release = { id: 'unreleased', title: 'Unreleased', date: undefined, sources: [], notes: [], items: [] };
  for (const changeset of changesets) {
    unreleased.sources.push(where(join(sources.changesetDir, changeset.file)));
    const bumps = Object.entries(changeset.releases)
      .map(([name, bump]) => `${name} (${bump})`)
      .join(', ');
    unreleased.notes.push(`${changeset.summary.replace(/\s+/g, ' ')} Packages: ${bumps}.`);
  }
  for (const { name, bundle } of sources.versions) {
    const snapshotFile = join(sources.releasedDir, `${name}.json`);
    if (!existsSync(snapshotFile)) continue;
    const snapshot = JSON.parse(readFileSync(snapshotFile, 'utf8')) as OpenApiDocument;
    const since = changeItems(diffDocuments(snapshot, bundle), bundle);
    if (since.length > 0) unreleased.sources.push(`${where(snapshotFile)} compared with the ${name} bundle`);
    unreleased.items.push(...since.map((item) => ({ ...item, text: `${name}: ${item.text}` })));
    const allowed = allowances.filter((entry) => entry.version === name);
    if (allowed.length > 0) unreleased.sources.push(where(sources.allowancesFile));
    for (const entry of allowed) {
      const at = [entry.operation, entry.path].filter(Boolean).join(' ');
      unreleased.items.push({ breaking: true, text: `${name}: ${entry.id}${at ? ` on ${at}` : ''} (allowed: ${entry.reason.trim()})` });
    }
  }
  unreleased.sources = [...new Set(unreleased.sources)];
  if (unreleased.notes.length + unreleased.items.length > 0) releases.push(unreleased);

  for (const { name, file } of sources.packageChangelogs) {
    for (const release of readPackageChangelog(name, readFileSync(file, 'utf8'))) {
      if (release.entries.length === 0) continue;
      releases.push({
        id: `${name}@${release.version}`,
        title: `${name} ${release.version}`,
        date: undefined,
        sources: [where(file)],
        notes: release.entries,
        items: [],
      });
    }
  }

  sources.versions.forEach(({ name, bundle }, index) => {
    const previous = sources.versions[index + 1];
    const snapshot = join(sources.releasedDir, `${name}.json`);
    const release: Release = {
      id: `api-${name}`,
      title: `API version ${name}`,
      date: name,
      sources: [`info.version of the ${name} description`, ...(existsSync(snapshot) ? [`${where(snapshot)} (released snapshot)`] : [])],
      notes: [],
      items: [],
    };
    if (previous) {
      release.notes.push(`What changed from ${previous.name}, computed from the two descriptions:`);
      release.items = changeItems(diffDocuments(previous.bundle, bundle), bundle);
    } else {
      release.notes.push('The oldest version the description holds; nothing earlier to compare it with.');
    }
    releases.push(release);
  });
  return releases;
}

/** The changelog's content (without the site around it). */
export function renderChangelog(releases: readonly Release[]): string {
  const sections = releases.map((release) => {
    const date = release.date ? `<time datetime="${escapeHtml(release.date)}">${escapeHtml(release.date)}</time>: ` : '';
    const breaking = release.items.filter((item) => item.breaking).length;
    const items = release.items.map(
      (item) =>
        `<li class="${item.breaking ? 'breaking' : 'compatible'}"><strong>${item.breaking ? 'Breaking' : 'Not breaking'}</strong> ${escapeHtml(item.text)}</li>`,
    );
    return `<section class="release" id="${escapeHtml(release.id)}"${release.date ? ` data-date="${escapeHtml(release.date)}"` : ''}>
<h2>${date}${escapeHtml(release.title)}</h2>
<p class="sources">From: ${release.sources.map((source) => `<code>${escapeHtml(source)}</code>`).join(', ')}${release.date ? '' : '. Not dated: no source records a date for it.'}</p>
${release.notes.map((note) => `<p>${escapeHtml(note)}</p>`).join('\n')}
${items.length ? `<p>${breaking} breaking, ${items.length - breaking} not breaking.</p><ul class="changes">${items.join('')}</ul>` : ''}
</section>`;
  });
  return `<h1>Changelog</h1>
<p>Newest first. Dated entries are the API versions, dated by their names; the packages' releases and the pending changes come
from Changesets, which records no date. A change is <strong>breaking</strong> when code written against the earlier description
can fail on the later one.</p>
${sections.join('\n')}`;
}
