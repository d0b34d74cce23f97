// `npm run build`: the docs in dist/, from the bundles of @aggregation/openapi.
//   dist/<document>.json            the bundle with its code samples (x-codeSamples), what the page renders
//   dist/<document>.html            the Redoc page, self-contained
//   dist/samples/<document>/<language>/<operationId>.<ext>   each sample exactly as its page shows it
//   dist/postman/<document>.postman_collection.json, .postman_environment.json   the Postman collection and its environment
//   dist/guides/<guide>.html        the guides, from guides/<guide>.md
//   dist/openapi/<document>.json, .yaml   the bundles, for download
//   dist/changes.json               what changed between each older version and the current one
//   dist/<version>.generators.json  the version's file for client generators (and .yaml), copied from the bundles
//   dist/index.html                 the versions, the current one, links, and the changes
import { copyFile, mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { distDir, loadBundle } from '@aggregation/openapi/contract';
import { generatorsBundlePath } from '@aggregation/openapi/generators';
import { decorate } from './decorate.ts';
import { diffDocuments } from './diff.ts';
import { currentVersion, type DocumentName, documentNames, isVersion, operationsOf, pageTitle, versions, webhooksOf } from './documents.ts';
import { type GeneratorFiles, type PageEntry, renderIndexPage } from './index-page.ts';
import { docsDir } from './paths.ts';

// Written beside dist/ and swapped in at the end, so a server serving dist/ never sees it half-built.
const outDir = `${docsDir}.next-${process.pid}`;

import { guidePath, loadGuides, renderGuide } from './guides.ts';
import { buildCollection, buildEnvironment } from './postman.ts';
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
  const collection = await buildCollection(bundle, name);
  await writeOut(join(outDir, 'postman', `${name}.postman_collection.json`), `${JSON.stringify(collection, null, 2)}\n`);
  await writeOut(join(outDir, 'postman', `${name}.postman_environment.json`), `${JSON.stringify(buildEnvironment(name), null, 2)}\n`);
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

/** Copies a version's files for client generators beside the pages, so that the index can link them. */
async function copyGeneratorFiles(version: (typeof versions)[number]): Promise<GeneratorFiles> {
  const [json, yaml] = await Promise.all(
    (['json', 'yaml'] as const).map(async (ext) => {
      const source = generatorsBundlePath(version, ext);
      await copyFile(source, join(outDir, basename(source)));
      return basename(source);
    }),
  );
  return { version, json: json!, yaml: yaml! };
}

async function build(): Promise<void> {
  await rm(outDir, { recursive: true, force: true });
  const pages = await Promise.all(documentNames.map(buildDocument));
  const generatorFiles = await Promise.all(versions.map(copyGeneratorFiles));

  const current = loadBundle(currentVersion);
  const changes = versions.filter((version) => version !== currentVersion).map((version) => diffDocuments(loadBundle(version), current));
  await writeOut(join(outDir, 'changes.json'), `${JSON.stringify(changes, null, 2)}\n`);

  const guides = loadGuides();
  const references = pages.map((page) => ({ href: page.file, title: page.title }));
  for (const guide of guides) await writeOut(join(outDir, guidePath(guide)), renderGuide(guide, guides, references));
  await mkdir(join(outDir, 'openapi'), { recursive: true });
  for (const name of documentNames) {
    for (const ext of ['json', 'yaml']) await copyFile(join(distDir, `${name}.${ext}`), join(outDir, 'openapi', `${name}.${ext}`));
  }

  const html = renderIndexPage({
    guides,
    title: typeof current.info.title === 'string' ? current.info.title : 'API',
    summary: typeof current.info.summary === 'string' ? current.info.summary : '',
    currentVersion,
    pages,
    changes,
    generatorFiles,
  });
  await writeOut(join(outDir, 'index.html'), html);

  const previous = `${docsDir}.previous-${process.pid}`;
  await rename(docsDir, previous).catch((error: NodeJS.ErrnoException) => {
    if (error.code !== 'ENOENT') throw error;
  });
  await rename(outDir, docsDir);
  await rm(previous, { recursive: true, force: true });
  console.log(`Docs written to ${docsDir}: ${pages.map((page) => page.file).join(', ')}, index.html, ${guides.length} guides`);
}

await build();
