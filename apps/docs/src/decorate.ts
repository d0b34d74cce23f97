// Writes the code samples into a copy of a bundle as `x-codeSamples`, the extension Redoc renders in the
// right-hand panel. The bundle itself stays untouched: the decorated copy is a build output of the docs only.
import type { DocumentName, OpenApiDocument } from './documents.ts';
import { operationsOf } from './documents.ts';
import { type Sample, samplesFor } from './samples.ts';

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
  }
  return { document, samples };
}
