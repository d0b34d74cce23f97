// Part of the build: the Markdown pages that the docs' llms.txt links (every guide and every operation's page), copied
// from @aggregation/docs's build into dist/docs/, with an index of them (dist/docs/index.json: each page's path,
// title, summary and section, as llms.txt lists them). The server offers them as resources; an installed server needs
// no docs package beside it.
import { copyFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type DocsPage, LLMS_TXT, parseLlmsTxt } from '../src/docs-index.ts';

const docsDist = dirname(createRequire(import.meta.url).resolve(`@aggregation/docs/dist/${LLMS_TXT}`));
const out = fileURLToPath(new URL('../dist/docs/', import.meta.url));

const pages: DocsPage[] = parseLlmsTxt(readFileSync(join(docsDist, LLMS_TXT), 'utf8'));
if (pages.length === 0) throw new Error(`${LLMS_TXT} of @aggregation/docs links no Markdown page`);
rmSync(out, { recursive: true, force: true });
for (const page of [{ path: LLMS_TXT }, ...pages]) {
  mkdirSync(dirname(join(out, page.path)), { recursive: true });
  copyFileSync(join(docsDist, page.path), join(out, page.path));
}
writeFileSync(join(out, 'index.json'), `${JSON.stringify(pages, null, 2)}\n`);
console.log(`dist/docs: ${LLMS_TXT} and the ${pages.length} pages it links`);
