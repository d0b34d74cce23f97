// The docs' Markdown pages as llms.txt lists them (llmstxt.org: `## Section`, then `- [Title](path): summary`), read
// from the copy the build keeps in dist/docs/ (scripts/docs.ts).
import { readFileSync } from 'node:fs';

export const LLMS_TXT = 'llms.txt';

export type DocsPage = { path: string; title: string; summary: string; section: string };

/** The Markdown pages an llms.txt links, in its order; links to other files (the bundles, HTML) are left out. */
export function parseLlmsTxt(text: string): DocsPage[] {
  const pages: DocsPage[] = [];
  let section = '';
  for (const line of text.split('\n')) {
    const heading = /^## (.+)$/.exec(line);
    if (heading) section = heading[1]!.trim();
    const link = /^- \[([^\]]+)\]\(([^)\s]+)\)(?::\s*(.*))?$/.exec(line);
    if (!link) continue;
    const [, title, path, summary = ''] = link;
    // Only pages of the docs themselves: relative paths to Markdown, never out of the folder.
    if (!path!.endsWith('.md') || /^[a-z]+:/i.test(path!) || path!.startsWith('/') || path!.split('/').includes('..')) continue;
    pages.push({ path: path!, title: title!, summary: summary.trim(), section });
  }
  return pages;
}

/** Where the build keeps the pages: dist/docs/ of this package, from src/ and from dist/ alike. */
export const docsDir = new URL('../dist/docs/', import.meta.url);

/** The pages the build copied, as its index lists them. */
export function loadDocsIndex(dir: URL = docsDir): DocsPage[] {
  return JSON.parse(readFileSync(new URL('index.json', dir), 'utf8')) as DocsPage[];
}

export function readDocsPage(path: string, dir: URL = docsDir): string {
  return readFileSync(new URL(path, dir), 'utf8');
}
