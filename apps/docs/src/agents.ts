// The docs as Markdown, for readers that are programs (coding assistants read the docs before their users do):
// every guide at guides/<guide>.md, every operation at reference/<document>/<operationId>.md, an index in the
// llmstxt.org format (llms.txt: a title, a summary, then sections of links) and everything in one file
// (llms-full.txt). All of it comes from the bundles, the guides and the samples the pages show.
import { deref, type JsonObject, type OpenApiDocument, type Operation, operationsOf } from '@aggregation/openapi/contract';
import { typeLabel } from './diff.ts';
import { type DocumentName, isVersion, pageTitle } from './documents.ts';
import { fieldsOf, firstParagraph } from './fields.ts';
import type { Guide } from './guides.ts';
import type { Sample } from './samples.ts';

/** Where each Markdown file is, from the docs' root. */
export const guideMarkdownPath = (guide: Pick<Guide, 'name'>) => `guides/${guide.name}.md`;
export const operationMarkdownPath = (document: string, operationId: string) => `reference/${document}/${operationId}.md`;

const cell = (text: string) => text.replaceAll('|', '\\|').replaceAll('\n', ' ');
const isObject = (value: unknown): value is JsonObject => typeof value === 'object' && value !== null && !Array.isArray(value);

function table(head: string[], rows: string[][]): string {
  if (rows.length === 0) return '';
  return [`| ${head.join(' | ')} |`, `|${head.map(() => '---').join('|')}|`, ...rows.map((row) => `| ${row.map(cell).join(' | ')} |`)].join('\n');
}

function fence(language: string, source: string): string {
  const longest = Math.max(2, ...[...source.matchAll(/`+/g)].map((match) => match[0].length));
  const ticks = '`'.repeat(longest + 1);
  return `${ticks}${language}\n${source.trimEnd()}\n${ticks}`;
}

/** The guide as Markdown: its title and summary, then its text with links to other guides pointing at their .md. */
export function guideMarkdown(guide: Guide): string {
  const text = guide.markdown
    // Flags of the info string (`sh display`, `sh fails`) say how the tests run a block; a reader needs the language.
    .replace(/^(\s*```+\s*\w+)[ \t]+(?:display|fails)\b.*$/gm, '$1')
    .replace(/\]\((?!https?:)([\w-]+)\.html(#[^)]*)?\)/g, (_match, name: string, hash = '') => `](${name}.md${hash})`);
  return `# ${guide.title}\n\n> ${guide.summary}\n\n${text.replace(/^\s*# .*\n+/, '').trim()}\n`;
}

function examplesOf(media: JsonObject, document: OpenApiDocument): unknown[] {
  if ('example' in media) return [media.example];
  if (!isObject(media.examples)) return [];
  return Object.values(media.examples).flatMap((example) => {
    const resolved = deref(document, example);
    return isObject(resolved) && 'value' in resolved ? [resolved.value] : [];
  });
}

function fieldRows(document: OpenApiDocument, schema: unknown): string[][] {
  return fieldsOf(document, schema).map((field) => [`\`${field.name}\``, `\`${field.type}\``, field.required ? 'yes' : 'no', field.description]);
}

/** The error codes a response's examples show (`not_found`, `enrollment.disconnected.<reason>`). */
function exampleCodes(document: OpenApiDocument, content: Operation['responses'][number]['content']): string[] {
  const codes = content.flatMap(({ media }) =>
    examplesOf(media, document).flatMap((value) =>
      isObject(value) && isObject(value.error) && typeof value.error.code === 'string' ? [value.error.code] : [],
    ),
  );
  return [...new Set(codes)];
}

export type OperationPage = { document: DocumentName; operation: Operation; samples: readonly Sample[]; bundle: OpenApiDocument };

/** One operation as Markdown: what it does, its parameters, request and response fields, errors and samples. */
export function operationMarkdown({ document, operation, samples, bundle }: OperationPage): string {
  const { operationId, method, path } = operation;
  const title = pageTitle(document, bundle);
  const lines: string[] = [
    `# ${operation.summary}`,
    '',
    `> \`${method.toUpperCase()} ${path}\` in ${title}: operation \`${operationId}\`${operation.tags[0] ? `, tag ${operation.tags[0]}` : ''}.`,
    '',
    typeof operation.operation.description === 'string' ? operation.operation.description.trim() : firstParagraph(operation.summary),
    '',
  ];
  const section = (heading: string, body: string) => {
    if (body.trim()) lines.push(`## ${heading}`, '', body.trim(), '');
  };

  const schemes = operation.security.flatMap((requirement) => Object.keys(requirement));
  section(
    'Authentication',
    schemes.length === 0
      ? 'None.'
      : [...new Set(schemes)]
          .map((name) => {
            const scheme = bundle.components?.securitySchemes?.[name] as JsonObject | undefined;
            return `- \`${name}\`: ${firstParagraph(scheme?.description)}`;
          })
          .join('\n'),
  );
  if (isVersion(document)) {
    lines.push(`Send \`Service-Version: ${document}\` to be answered in this version.`, '');
  }

  section(
    'Parameters',
    table(
      ['Name', 'In', 'Type', 'Required', 'Description'],
      operation.parameters.map((parameter) => [
        `\`${parameter.name}\``,
        parameter.in,
        `\`${parameter.schema ? fieldTypeOf(parameter.schema) : 'string'}\``,
        parameter.required ? 'yes' : 'no',
        firstParagraph((parameter as JsonObject).description),
      ]),
    ),
  );

  if (operation.requestBody) {
    const parts = operation.requestBody.content.map((media) => {
      const example = examplesOf(media.media, bundle)[0];
      return [
        `Content type \`${media.mediaType}\`${operation.requestBody?.required ? ' (required)' : ''}.`,
        '',
        table(['Field', 'Type', 'Required', 'Description'], fieldRows(bundle, media.media.schema)),
        example === undefined ? '' : `\nExample:\n\n${fence('json', JSON.stringify(example, null, 2))}`,
      ].join('\n');
    });
    section('Request body', parts.join('\n\n'));
  }

  const successes = operation.responses.filter((response) => /^[123]/.test(response.status));
  const errors = operation.responses.filter((response) => !/^[123]/.test(response.status));
  section(
    'Responses',
    successes
      .map((response) => {
        const body = response.content
          .map((media) => {
            const example = examplesOf(media.media, bundle)[0];
            return [
              `Content type \`${media.mediaType}\`: \`${fieldTypeOf(media.media.schema)}\``,
              '',
              table(['Field', 'Type', 'Required', 'Description'], fieldRows(bundle, media.media.schema)),
              example === undefined ? '' : `\nExample:\n\n${fence('json', JSON.stringify(example, null, 2))}`,
            ].join('\n');
          })
          .join('\n\n');
        return `### ${response.status}\n\n${firstParagraph(response.response.description)}\n\n${body || 'No body.'}`;
      })
      .join('\n\n'),
  );
  section(
    'Errors',
    errors.length === 0
      ? ''
      : `Every error body is \`{"error": {"code", "message", "params"?}}\`; match \`error.code\` on its first dot-separated tokens.\n\n${table(
          ['Status', 'When', 'Codes'],
          errors.map((response) => [
            response.status,
            firstParagraph(response.response.description),
            exampleCodes(bundle, response.content)
              .map((code) => `\`${code}\``)
              .join(', '),
          ]),
        )}`,
  );
  section('Samples', samples.map((sample) => `### ${sample.language.label}\n\n${fence(sample.language.fence, sample.source)}`).join('\n\n'));
  return `${lines
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trimEnd()}\n`;
}

function fieldTypeOf(schema: unknown): string {
  return isObject(schema) ? typeLabel(schema) : 'any';
}

export type LlmsInput = {
  title: string;
  summary: string;
  guides: readonly Guide[];
  documents: readonly { name: DocumentName; bundle: OpenApiDocument; title: string; status: string }[];
};

/** llms.txt: the title, a summary, then a section of links per kind (llmstxt.org). */
export function llmsTxt(input: LlmsInput): string {
  const current = input.documents.find((document) => document.status === 'current');
  const lines = [
    `# ${input.title}`,
    '',
    `> ${input.summary}`,
    '',
    [
      current ? `The current API version is ${current.name}; a request chooses its version with the \`Service-Version\` header.` : '',
      'Requests authenticate with the access token as the username of HTTP Basic, with an empty password.',
      'The sandbox server answers every operation with test data; `POST /sandbox/enrollments` with `{"username": "username", "password": "password"}` gives a token.',
      'Each link below is a Markdown page; the same pages are rendered as HTML beside them (`.html`).',
    ]
      .filter(Boolean)
      .join(' '),
    '',
    '## Guides',
    '',
    ...input.guides.map((guide) => `- [${guide.title}](${guideMarkdownPath(guide)}): ${guide.summary}`),
    '',
  ];
  for (const document of input.documents) {
    lines.push(`## ${document.title}`, '');
    for (const operation of operationsOf(document.bundle)) {
      const about = `\`${operation.method.toUpperCase()} ${operation.path}\``;
      lines.push(`- [${operation.summary}](${operationMarkdownPath(document.name, operation.operationId)}): ${about}, \`${operation.operationId}\``);
    }
    lines.push('');
  }
  lines.push(
    '## Optional',
    '',
    ...input.documents.map(
      (document) => `- [OpenAPI description, ${document.name}](openapi/${document.name}.json): the whole ${document.title} as OpenAPI 3.1`,
    ),
    '- [Changelog](changelog.html): the releases and the changes between API versions, newest first',
    '',
  );
  return lines.join('\n');
}

/** llms-full.txt: llms.txt's header, then every guide and every operation in full. */
export function llmsFullTxt(input: LlmsInput, pages: readonly OperationPage[]): string {
  const head = llmsTxt(input).split('\n## ')[0]!.trimEnd();
  const parts = [
    head,
    ...input.guides.map((guide) => `<!-- ${guideMarkdownPath(guide)} -->\n${guideMarkdown(guide)}`),
    ...pages.map((page) => `<!-- ${operationMarkdownPath(page.document, page.operation.operationId)} -->\n${operationMarkdown(page)}`),
  ];
  return `${parts.join('\n\n---\n\n').trimEnd()}\n`;
}
