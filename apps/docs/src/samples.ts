// Code samples live as files that tests run or compile: samples/<language>/<operationId>.<ext>. The samples pin
// the current version; the page of an older version shows them pinned to that version instead, unless a file
// written for that version exists (samples/<language>/<version>/<operationId>.<ext>).
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { currentVersion, type DocumentName, isVersion } from './documents.ts';

export const samplesDir = fileURLToPath(new URL('../samples', import.meta.url));

export type Language = {
  /** Folder under samples/. */
  id: string;
  ext: string;
  /** `lang` of x-codeSamples (Redoc picks the highlighting from it). */
  lang: string;
  label: string;
  /** The language of a Markdown code fence. */
  fence: string;
  /** Only the API versions' pages: the Python, Go and Java clients are generated from a version's description, which the sandbox document is not. */
  versionsOnly?: true;
};

export const languages: readonly Language[] = [
  { id: 'curl', ext: 'sh', lang: 'curl', label: 'curl', fence: 'sh' },
  { id: 'typescript', ext: 'ts', lang: 'TypeScript', label: 'TypeScript', fence: 'ts' },
  { id: 'python', ext: 'py', lang: 'Python', label: 'Python', fence: 'python' },
  { id: 'go', ext: 'go', lang: 'Go', label: 'Go', fence: 'go', versionsOnly: true },
  { id: 'java', ext: 'java', lang: 'Java', label: 'Java', fence: 'java', versionsOnly: true },
];

/** The languages a document's page shows samples in. */
export function languagesOf(document: DocumentName): readonly Language[] {
  return isVersion(document) ? languages : languages.filter((language) => !language.versionsOnly);
}

export type Sample = {
  document: DocumentName;
  operationId: string;
  language: Language;
  /** The file the sample was read from. */
  file: string;
  /** What the page shows. */
  source: string;
};

export class MissingSamplesError extends Error {
  readonly missing: string[];
  constructor(missing: string[]) {
    super(`Missing code samples (add these files):\n  ${missing.join('\n  ')}`);
    this.missing = missing;
  }
}

/** Samples call the API at this variable of the environment, so that they run against any server as shown. */
export const baseUrlVariable = 'AGGREGATION_BASE_URL';

export class HardCodedHostError extends Error {
  readonly files: string[];
  constructor(files: string[]) {
    super(`Code samples that do not read the API's address from ${baseUrlVariable}:\n  ${files.join('\n  ')}`);
    this.files = files;
  }
}

/** The sample of one operation in one language as a document's page shows it, or undefined when there is none. */
export function readSample(document: DocumentName, operationId: string, language: Language, dir: string = samplesDir): Sample | undefined {
  const own = join(dir, language.id, document, `${operationId}.${language.ext}`);
  if (existsSync(own)) return { document, operationId, language, file: own, source: tidy(readFileSync(own, 'utf8')) };
  const shared = join(dir, language.id, `${operationId}.${language.ext}`);
  if (!existsSync(shared)) return undefined;
  let source = tidy(readFileSync(shared, 'utf8'));
  if (isVersion(document) && document !== currentVersion) source = source.replaceAll(currentVersion, document);
  return { document, operationId, language, file: shared, source };
}

/** One sample per language for each operation id; throws listing every missing file, or every sample with a host of its own. */
export function samplesFor(document: DocumentName, operationIds: readonly string[], dir: string = samplesDir): Sample[] {
  const samples: Sample[] = [];
  const missing: string[] = [];
  for (const operationId of operationIds) {
    for (const language of languagesOf(document)) {
      const sample = readSample(document, operationId, language, dir);
      if (sample) samples.push(sample);
      else missing.push(join(dir, language.id, `${operationId}.${language.ext}`));
    }
  }
  if (missing.length > 0) throw new MissingSamplesError(missing);
  const hardCoded = samples.filter((sample) => !sample.source.includes(baseUrlVariable)).map((sample) => sample.file);
  if (hardCoded.length > 0) throw new HardCodedHostError([...new Set(hardCoded)]);
  return samples;
}

function tidy(source: string): string {
  return `${source.trim()}\n`;
}
