// `npm run build`: the docs in dist/, from the bundles of @aggregation/openapi.
//   dist/<document>.json            the bundle with its code samples (x-codeSamples), what the page renders
//   dist/<document>.html            the Redoc page, self-contained
//   dist/samples/<document>/<language>/<operationId>.<ext>   each sample exactly as its page shows it
//   dist/changes.json               what changed between each older version and the current one
//   dist/index.html                 the versions, the current one, links, and the changes
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { loadBundle } from '@aggregation/openapi/contract';
import { decorate } from './decorate.ts';
import { diffDocuments } from './diff.ts';
import {
  currentVersion,
  type DocumentName,
  documentNames,
  isVersion,
  operationsOf,
  pageTitle,
  versions,
  webhooksOf,
} from './documents.ts';
import { type PageEntry, renderIndexPage } from './index-page.ts';
import { docsDir } from './paths.ts';

// Written beside dist/ and swapped in at the end, so a server serving dist/ never sees it half-built.
const outDir = `${docsDir}.next-${process.pid}`;
import { renderPage } from './render.ts';

async function writeOut(path: string, content: string): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, content);
}

async function buildDocument(name: DocumentName): Promise<PageEntry> {
  const bundle = loadBundle(name);
  const { document, samples } = decorate(name, bundle);
  const decoratedPath = join(outDir, `${name}.json`);
  await writeOut(decoratedPath, `${JSON.stringify(document, null, 2)}\n`);
  for (const sample of samples) {
    const file = join(outDir, 'samples', name, sample.language.id, `${sample.operationId}.${sample.language.ext}`);
    await writeOut(file, sample.source);
  }
  const title = pageTitle(name, bundle);
  await renderPage(decoratedPath, join(outDir, `${name}.html`), title);
  return {
    name,
    file: `${name}.html`,
    title,
    summary: typeof bundle.info.summary === 'string' ? bundle.info.summary : '',
    status: name === currentVersion ? 'current' : isVersion(name) ? 'older' : 'sandbox',
    operations: operationsOf(bundle).length,
    webhooks: webhooksOf(bundle).length,
  };
}

async function build(): Promise<void> {
  await rm(outDir, { recursive: true, force: true });
  const pages = await Promise.all(documentNames.map(buildDocument));

  const current = loadBundle(currentVersion);
  const changes = versions
    .filter((version) => version !== currentVersion)
    .map((version) => diffDocuments(loadBundle(version), current));
  await writeOut(join(outDir, 'changes.json'), `${JSON.stringify(changes, null, 2)}\n`);

  const html = renderIndexPage({
    title: typeof current.info.title === 'string' ? current.info.title : 'API',
    summary: typeof current.info.summary === 'string' ? current.info.summary : '',
    currentVersion,
    pages,
    changes,
  });
  await writeOut(join(outDir, 'index.html'), html);

  const previous = `${docsDir}.previous-${process.pid}`;
  await rename(docsDir, previous).catch((error: NodeJS.ErrnoException) => {
    if (error.code !== 'ENOENT') throw error;
  });
  await rename(outDir, docsDir);
  await rm(previous, { recursive: true, force: true });
  console.log(`Docs written to ${docsDir}: ${pages.map((page) => page.file).join(', ')}, index.html`);
}

await build();
