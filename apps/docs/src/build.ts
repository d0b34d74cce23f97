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
//   dist/try/index.html             the console that sends requests to the sandbox serving the docs
//   dist/changelog.html             the dated changelog, newest first
//   dist/llms.txt, llms-full.txt    the index for programs (llmstxt.org) and everything in one file
//   dist/guides/<guide>.md, dist/reference/<document>/<operationId>.md   the same content as Markdown
//   dist/search-index.json          the guides' sections, which the search box of every page reads
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { copyFile, mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { distDir, loadBundle } from '@aggregation/openapi/contract';
import { generatorsBundlePath } from '@aggregation/openapi/generators';
import {
  guideMarkdown,
  guideMarkdownPath,
  type LlmsInput,
  llmsFullTxt,
  llmsTxt,
  type OperationPage,
  operationMarkdown,
  operationMarkdownPath,
} from './agents.ts';
import { buildChangelog, renderChangelog } from './changelog.ts';
import { decorate } from './decorate.ts';
import { diffDocuments } from './diff.ts';
import { currentVersion, type DocumentName, documentNames, isVersion, operationsOf, pageTitle, versions, webhooksOf } from './documents.ts';
import { type GeneratorFiles, type PageEntry, renderIndexPage } from './index-page.ts';
import { docsDir } from './paths.ts';

// Written beside dist/ and swapped in at the end, so a server serving dist/ never sees it half-built.
const outDir = `${docsDir}.next-${process.pid}`;

import { type Guide, guidePath, headingId, loadGuides, renderGuide, siteNav, sitePage } from './guides.ts';
import { packageDir } from './paths.ts';
import { buildCollection, buildEnvironment } from './postman.ts';
import { renderPage } from './render.ts';
import { buildSearchIndex, searchIndexFile } from './search.ts';
import { consoleOperations, renderTryContent, tryPagePath } from './try-page.ts';

const repoRoot = join(packageDir, '..', '..');
const openapiDir = join(repoRoot, 'openapi');

async function writeOut(path: string, content: string): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, content);
}

type Built = { page: PageEntry; operations: OperationPage[] };

async function buildDocument(name: DocumentName, guides: readonly Guide[]): Promise<Built> {
  const bundle = loadBundle(name);
  const { document, samples } = decorate(name, bundle);
  const operations = operationsOf(bundle).map((operation) => ({
    document: name,
    operation,
    bundle,
    samples: samples.filter((sample) => sample.operationId === operation.operationId),
  }));
  for (const page of operations) await writeOut(join(outDir, operationMarkdownPath(name, page.operation.operationId)), operationMarkdown(page));
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
  await renderPage(decoratedPath, join(outDir, `${name}.html`), title, {
    document: name,
    references: documentNames.map((other) => ({ name: other, href: `${other}.html`, title: other })),
    guides: guides.map((guide) => ({ href: guidePath(guide), title: guide.title })),
  });
  const page: PageEntry = {
    name,
    file: `${name}.html`,
    title,
    summary: typeof bundle.info.summary === 'string' ? bundle.info.summary : '',
    status: name === currentVersion ? 'current' : isVersion(name) ? 'older' : 'sandbox',
    operations: operationsOf(bundle).length,
    webhooks: webhooksOf(bundle).length,
  };
  return { page, operations };
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

/** The CHANGELOG.md of every workspace that has one, by package name. */
function packageChangelogs(): { name: string; file: string }[] {
  const workspaces = [
    openapiDir,
    ...['packages', 'apps'].flatMap((folder) => readdirSync(join(repoRoot, folder)).map((name) => join(repoRoot, folder, name))),
  ];
  return workspaces.flatMap((dir) => {
    const file = join(dir, 'CHANGELOG.md');
    if (!existsSync(file) || !existsSync(join(dir, 'package.json'))) return [];
    return [{ name: (JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { name: string }).name, file }];
  });
}

async function build(): Promise<void> {
  await rm(outDir, { recursive: true, force: true });
  const guides = loadGuides();
  const built = await Promise.all(documentNames.map((name) => buildDocument(name, guides)));
  const pages = built.map((entry) => entry.page);
  const generatorFiles = await Promise.all(versions.map(copyGeneratorFiles));

  const current = loadBundle(currentVersion);
  const changes = versions.filter((version) => version !== currentVersion).map((version) => diffDocuments(loadBundle(version), current));
  await writeOut(join(outDir, 'changes.json'), `${JSON.stringify(changes, null, 2)}\n`);

  const references = pages.map((page) => ({ href: page.file, title: page.title }));
  for (const guide of guides) {
    await writeOut(join(outDir, guidePath(guide)), renderGuide(guide, guides, references));
    await writeOut(join(outDir, guideMarkdownPath(guide)), guideMarkdown(guide));
  }
  await writeOut(join(outDir, searchIndexFile), JSON.stringify(buildSearchIndex(guides, headingId)));

  const documents = documentNames.map((name) => ({ name, bundle: loadBundle(name), title: pages.find((page) => page.name === name)!.title }));
  const llms: LlmsInput = {
    title: typeof current.info.title === 'string' ? current.info.title : 'API',
    summary: typeof current.info.summary === 'string' ? current.info.summary : '',
    guides,
    documents: documents.map((document) => ({ ...document, status: pages.find((page) => page.name === document.name)!.status })),
  };
  await writeOut(join(outDir, 'llms.txt'), llmsTxt(llms));
  await writeOut(
    join(outDir, 'llms-full.txt'),
    llmsFullTxt(
      llms,
      built.flatMap((entry) => entry.operations),
    ),
  );

  await writeOut(
    join(outDir, tryPagePath),
    sitePage('Try it: documentation', siteNav(guides, references, tryPagePath, '../'), renderTryContent(consoleOperations(documents), currentVersion)),
  );

  const releases = buildChangelog({
    repoRoot,
    versions: versions.map((version) => ({ name: version, bundle: loadBundle(version) })),
    releasedDir: join(openapiDir, 'released'),
    allowancesFile: join(openapiDir, 'breaking-changes.yaml'),
    changesetDir: join(repoRoot, '.changeset'),
    packageChangelogs: packageChangelogs(),
  });
  await writeOut(
    join(outDir, 'changelog.html'),
    sitePage('Changelog: documentation', siteNav(guides, references, 'changelog.html', ''), renderChangelog(releases)),
  );
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
