// The docs' landing page: the versions (which one is current), a link to each page, and what changed between
// the versions, rendered from the diff of the bundles. One self-contained HTML file, no script.
import type { Changes, OperationKey, SchemaDiff, ShapeChange } from './diff.ts';
import { type Guide, guidePath, siteNav, sitePage } from './guides.ts';
import { escapeHtml } from './html.ts';

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

/** The files of one version made for client generators, as built beside the pages. */
export type GeneratorFiles = { version: string; json: string; yaml: string };

export type IndexPageInput = {
  guides: readonly Guide[];
  title: string;
  summary: string;
  currentVersion: string;
  pages: PageEntry[];
  changes: Changes[];
  generatorFiles: GeneratorFiles[];
};

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

  const body = section('Schemas', schemas) + section('Operations', operations) + section('Webhook events', webhooks) + section('Security', security);
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

/** Which file to feed which generator, and the options the project's own tests generate with. */
function renderClients(files: GeneratorFiles[], currentVersion: string): string {
  const current = files.find((file) => file.version === currentVersion) ?? files[0];
  if (!current) return '';
  const rows = files
    .map(
      (file) =>
        `<tr><th scope="row">${escapeHtml(file.version)}</th><td><a href="${escapeHtml(file.json)}">${code(file.json)}</a>, ` +
        `<a href="${escapeHtml(file.yaml)}">${code(file.yaml)}</a></td></tr>`,
    )
    .join('\n');
  const generate = (generator: string, options: string) =>
    code(`openapi-generator-cli generate -g ${generator} -i ${current.json} -o ${generator} --additional-properties=${options}`);
  return `<h2 id="clients">Clients in other languages</h2>
<p>Feed a client generator the file made for generators: the same API as the version's description, without OpenAPI 3.1's
<code>webhooks</code>, which many generators turn into client code that does not compile. Every event is still described, as a
schema under <code>components/schemas</code> (<code>EnrollmentDisconnectedEvent</code>, <code>TransactionsProcessedEvent</code>, ...), to
parse what your webhook endpoint receives.</p>
<table class="pages"><thead><tr><th>Version</th><th>For client generators</th></tr></thead><tbody>${rows}</tbody></table>
<p>Clients generated from it with these generators and options are compiled and run against the sandbox in the project's tests:</p>
<table class="clients">
<thead><tr><th>Generator</th><th>How</th></tr></thead>
<tbody>
<tr><th scope="row">openapi-generator, <code>typescript-fetch</code></th><td>${generate('typescript-fetch', 'supportsES6=true,npmName=aggregation-openapi-client')}</td></tr>
<tr><th scope="row">openapi-generator, <code>python</code></th><td>${generate('python', 'packageName=aggregation_openapi_client,packageVersion=2020.10.12')}
(<code>info.version</code> is a date, not a valid Python package version: give one)</td></tr>
<tr><th scope="row">openapi-generator, <code>java</code></th><td>${generate('java', 'artifactId=aggregation-openapi-client,invokerPackage=example.aggregation.client,apiPackage=example.aggregation.client.api,modelPackage=example.aggregation.client.model')}
(the default library, OkHttp with Gson: its models check required and unknown fields, which tells apart the answers of
<code>POST /accounts/{account_id}/payees</code>, a payee or an MFA challenge; <code>library=native</code>'s Jackson models match both)
(the <code>mutualTLS</code> scheme of live tokens is left out by every openapi-generator language: set the client certificate in the HTTP client)</td></tr>
<tr><th scope="row">openapi-python-client</th><td>${code(`openapi-python-client generate --path ${current.json} --fail-on-warning`)}</td></tr>
<tr><th scope="row">oapi-codegen</th><td>${code(`oapi-codegen -generate types,client -package aggregation ${current.json}`)}</td></tr>
</tbody>
</table>`;
}

export function renderIndexPage(input: IndexPageInput): string {
  const versions = input.pages.filter((page) => page.status !== 'sandbox');
  const others = input.pages.filter((page) => page.status === 'sandbox');
  const table = (pages: PageEntry[]) => `<table class="pages">
<thead><tr><th>Document</th><th>Status</th><th>About</th><th>Operations</th><th>Webhook events</th></tr></thead>
<tbody>${pages.map(pageRow).join('\n')}</tbody>
</table>`;
  const references = input.pages.map((page) => ({ href: page.file, title: page.title }));
  const [first, ...more] = input.guides;
  const content = `<h1>${escapeHtml(input.title)}</h1>
<p>${escapeHtml(input.summary)}</p>
<section id="get-started" class="get-started">
<h2>Get started</h2>
${first ? `<p><a class="start" href="${escapeHtml(guidePath(first))}"><strong>${escapeHtml(first.title)}</strong></a>: ${escapeHtml(first.summary)}</p>` : ''}
${list(more.map((guide) => `<a href="${escapeHtml(guidePath(guide))}">${escapeHtml(guide.title)}</a>: ${escapeHtml(guide.summary)}`))}
</section>
<h2 id="versions">Versions</h2>
<p>The current version is <strong id="current-version">${escapeHtml(input.currentVersion)}</strong>. A request chooses its version
with the <code>Service-Version</code> header (for example <code>Service-Version: ${escapeHtml(input.currentVersion)}</code>); without it
the application's default version answers, and every response names the version that served it.</p>
${table(versions)}
<h2 id="sandbox">Sandbox control API</h2>
<p>Creates test enrollments, moves their clock and drives webhooks in the sandbox.</p>
${table(others)}
<h2 id="downloads">Downloads</h2>
<p>The OpenAPI 3.1 description of each document, to generate a client or import into your tools, and a Postman
collection of it with its environment.</p>
${downloads(input.pages)}
${renderClients(input.generatorFiles, input.currentVersion)}
${input.changes.map(renderChanges).join('\n')}
<p><small>Generated from the bundled OpenAPI descriptions.</small></p>`;
  return sitePage(`${input.title}: documentation`, siteNav(input.guides, references, 'index.html', ''), content);
}

function downloads(pages: readonly PageEntry[]): string {
  const rows = pages.map((page) => {
    const file = (path: string, label: string) => `<a href="${escapeHtml(path)}" download>${escapeHtml(label)}</a>`;
    return `<tr><th scope="row">${escapeHtml(page.name)}</th>
<td>${file(`openapi/${page.name}.json`, 'JSON')} · ${file(`openapi/${page.name}.yaml`, 'YAML')}</td>
<td>${file(`postman/${page.name}.postman_collection.json`, 'collection')} · ${file(`postman/${page.name}.postman_environment.json`, 'environment')}</td></tr>`;
  });
  return `<table class="downloads"><thead><tr><th>Document</th><th>OpenAPI</th><th>Postman</th></tr></thead><tbody>${rows.join('')}</tbody></table>`;
}
