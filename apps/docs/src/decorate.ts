// Writes the code samples into a copy of a bundle as `x-codeSamples`, the extension Redoc renders in the
// right-hand panel, and a line of links under each operation's description (the console with the operation chosen,
// the operation as Markdown, the changelog). The bundle itself stays untouched: the decorated copy is a build
// output of the docs only, so the description reads the same everywhere else.

import { operationMarkdownPath } from './agents.ts';
import type { DocumentName, OpenApiDocument } from './documents.ts';
import { operationsOf } from './documents.ts';
import { type Sample, samplesFor } from './samples.ts';
import { tryLink } from './try-page.ts';

export type Decorated = { document: OpenApiDocument; samples: Sample[] };

export function decorate(name: DocumentName, bundle: OpenApiDocument, samplesDir?: string): Decorated {
  const document = structuredClone(bundle);
  const operations = operationsOf(document);
  const samples = samplesFor(
    name,
    operations.map((operation) => operation.operationId),
    samplesDir,
  );
  for (const operation of operations) {
    operation.operation['x-codeSamples'] = samples
      .filter((sample) => sample.operationId === operation.operationId)
      .map((sample) => ({ lang: sample.language.lang, label: sample.language.label, source: sample.source }));
    const description = typeof operation.operation.description === 'string' ? operation.operation.description.trimEnd() : '';
    const links = [
      `[Try it](${tryLink(name, operation.operationId)})`,
      `[As Markdown](${operationMarkdownPath(name, operation.operationId)})`,
      '[Changelog](changelog.html)',
    ].join(' · ');
    operation.operation.description = `${description}${description ? '\n\n' : ''}${links}`;
  }
  return { document, samples };
}
