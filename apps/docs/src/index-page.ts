// The docs' landing page: the versions (which one is current), a link to each page, and what changed between
// the versions, rendered from the diff of the bundles. One self-contained HTML file, no script.
import type { Changes, OperationKey, SchemaDiff, ShapeChange } from './diff.ts';
import { faviconLink } from './offline.ts';

export type PageEntry = {
  name: string;
  file: string;
  title: string;
  summary: string;
  /** `current`, `older` or `sandbox`. */
  status: 'current' | 'older' | 'sandbox';
  operations: number;
  webhooks: number;
};

export type IndexPageInput = {
  title: string;
  summary: string;
  currentVersion: string;
  pages: PageEntry[];
  changes: Changes[];
};

const escapes: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => escapes[char]!);
}

const code = (text: string) => `<code>${escapeHtml(text)}</code>`;

function list(items: string[]): string {
  return items.length === 0 ? '' : `<ul>${items.map((item) => `<li>${item}</li>`).join('')}</ul>`;
}

function operationLabel(operation: OperationKey): string {
  const id = operation.operationId ? ` (${code(operation.operationId)})` : '';
  return `${code(`${operation.method.toUpperCase()} ${operation.path}`)}${id}`;
}

function shapeChange(change: ShapeChange): string {
  const via = change.via.length > 0 ? `, through ${change.via.map(code).join(', ')}` : '';
  const types = change.from === change.to ? `${code(change.to)} changed shape` : `${code(change.from)} → ${code(change.to)}`;
  return `${escapeHtml(change.name)}: ${types}${via}`;
}

function schemaChange(schema: SchemaDiff): string {
  const lines: string[] = [];
  if (schema.type) lines.push(`type ${code(schema.type.from)} → ${code(schema.type.to)}`);
  for (const property of schema.properties.added) lines.push(`<span class="added">added</span> ${code(property.name)}: ${code(property.type)}`);
  for (const property of schema.properties.removed) lines.push(`<span class="removed">removed</span> ${code(property.name)}: ${code(property.type)}`);
  for (const property of schema.properties.changed) {
    lines.push(`<span class="changed">changed</span> ${code(property.name)}: ${code(property.from)} → ${code(property.to)}`);
  }
  for (const name of schema.required.added) lines.push(`${code(name)} is now required`);
  for (const name of schema.required.removed) lines.push(`${code(name)} is now optional`);
  return `<tr><th scope="row">${code(schema.name)}</th><td>${list(lines)}</td></tr>`;
}

function section(title: string, body: string): string {
  return body ? `<h3>${escapeHtml(title)}</h3>${body}` : '';
}

function renderChanges(changes: Changes): string {
  const schemas = [
    changes.schemas.added.length ? `<p>Added: ${changes.schemas.added.map(code).join(', ')}</p>` : '',
    changes.schemas.removed.length ? `<p>Removed: ${changes.schemas.removed.map(code).join(', ')}</p>` : '',
    changes.schemas.changed.length
      ? `<table class="changes"><thead><tr><th>Schema</th><th>Changes</th></tr></thead><tbody>${changes.schemas.changed.map(schemaChange).join('')}</tbody></table>`
      : '',
  ].join('');

  const operationRows = changes.operations.changed.map((operation) => {
    const lines = [
      ...operation.parameters.added.map((name) => `parameter ${code(name)} added`),
      ...operation.parameters.removed.map((name) => `parameter ${code(name)} removed`),
      ...operation.parameters.changed.map((change) => `parameter ${shapeChange(change)}`),
      ...(operation.requestBody ? [shapeChange(operation.requestBody)] : []),
      ...operation.responses.added.map((status) => `response ${code(status)} added`),
      ...operation.responses.removed.map((status) => `response ${code(status)} removed`),
      ...operation.responses.changed.map((change) => `response ${shapeChange(change)}`),
      ...(operation.security ? [`security ${code(operation.security.from)} → ${code(operation.security.to)}`] : []),
    ];
    return `<tr><th scope="row">${operationLabel(operation)}</th><td>${list(lines)}</td></tr>`;
  });
  const operations = [
    changes.operations.added.length ? `<p>Added:</p>${list(changes.operations.added.map(operationLabel))}` : '',
    changes.operations.removed.length ? `<p>Removed:</p>${list(changes.operations.removed.map(operationLabel))}` : '',
    operationRows.length
      ? `<table class="changes"><thead><tr><th>Operation</th><th>Changes</th></tr></thead><tbody>${operationRows.join('')}</tbody></table>`
      : '',
  ].join('');

  const webhooks = list([
    ...changes.webhooks.added.map((name) => `${code(name)} <span class="added">added</span>`),
    ...changes.webhooks.removed.map((name) => `${code(name)} <span class="removed">removed</span>`),
    ...changes.webhooks.changed.map((hook) => `${code(hook.name)}: ${shapeChange(hook.payload)}`),
  ]);

  const security = list([
    ...changes.securitySchemes.added.map((name) => `scheme ${code(name)} <span class="added">added</span>`),
    ...changes.securitySchemes.removed.map((name) => `scheme ${code(name)} <span class="removed">removed</span>`),
    ...changes.securitySchemes.changed.map((scheme) => `scheme ${code(scheme.name)}: ${code(scheme.from)} → ${code(scheme.to)}`),
    ...(changes.security ? [`requirements ${code(changes.security.from)} → ${code(changes.security.to)}`] : []),
  ]);

  const body =
    section('Schemas', schemas) + section('Operations', operations) + section('Webhook events', webhooks) + section('Security', security);
  const id = `changes-${changes.from}-${changes.to}`;
  return `<section id="${escapeHtml(id)}" class="diff" data-from="${escapeHtml(changes.from)}" data-to="${escapeHtml(changes.to)}">
<h2>What changed from ${escapeHtml(changes.from)} to ${escapeHtml(changes.to)}</h2>
${body || '<p>No changes.</p>'}
</section>`;
}

function pageRow(page: PageEntry): string {
  const status = page.status === 'current' ? '<strong class="current">current</strong>' : escapeHtml(page.status);
  return `<tr data-document="${escapeHtml(page.name)}">
<th scope="row"><a href="${escapeHtml(page.file)}">${escapeHtml(page.name)}</a></th>
<td>${status}</td><td>${escapeHtml(page.summary)}</td><td>${page.operations}</td><td>${page.webhooks}</td>
</tr>`;
}

const style = `
body { font: 16px/1.5 system-ui, sans-serif; color: #1f2328; margin: 0; }
main { max-width: 62rem; margin: 0 auto; padding: 2rem 1.5rem 4rem; }
h1 { margin-bottom: .25rem; } h2 { margin-top: 2.5rem; border-bottom: 1px solid #d0d7de; padding-bottom: .3rem; }
table { border-collapse: collapse; width: 100%; margin: .5rem 0 1rem; }
th, td { text-align: left; vertical-align: top; padding: .4rem .6rem; border-bottom: 1px solid #d0d7de; }
thead th { background: #f6f8fa; }
td ul { margin: 0; padding-left: 1.1rem; }
code { font: 13px/1.4 ui-monospace, monospace; background: #f6f8fa; padding: .1rem .3rem; border-radius: 4px; }
.current { color: #1a7f37; } .added { color: #1a7f37; } .removed { color: #cf222e; } .changed { color: #9a6700; }
a { color: #0969da; }
.pages th { white-space: nowrap; }
`;

export function renderIndexPage(input: IndexPageInput): string {
  const versions = input.pages.filter((page) => page.status !== 'sandbox');
  const others = input.pages.filter((page) => page.status === 'sandbox');
  const table = (pages: PageEntry[]) => `<table class="pages">
<thead><tr><th>Document</th><th>Status</th><th>About</th><th>Operations</th><th>Webhook events</th></tr></thead>
<tbody>${pages.map(pageRow).join('\n')}</tbody>
</table>`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(input.title)}: documentation</title>
${faviconLink}
<style>${style}</style>
</head>
<body>
<main>
<h1>${escapeHtml(input.title)}</h1>
<p>${escapeHtml(input.summary)}</p>
<h2 id="versions">Versions</h2>
<p>The current version is <strong id="current-version">${escapeHtml(input.currentVersion)}</strong>. A request chooses its version
with the <code>Service-Version</code> header (for example <code>Service-Version: ${escapeHtml(input.currentVersion)}</code>); without it
the application's default version answers, and every response names the version that served it.</p>
${table(versions)}
<h2 id="sandbox">Sandbox control API</h2>
<p>Creates test enrollments, moves their clock and drives webhooks in the sandbox.</p>
${table(others)}
${input.changes.map(renderChanges).join('\n')}
<p><small>Generated from the bundled OpenAPI descriptions.</small></p>
</main>
</body>
</html>
`;
}
