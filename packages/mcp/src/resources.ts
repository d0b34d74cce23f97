// The docs as MCP resources: every guide and every operation's Markdown page, the files the docs' llms.txt links
// (copied from @aggregation/docs's build by this package's build), and llms.txt itself as their index.
import type { ReadResourceResult, Resource } from '@modelcontextprotocol/sdk/types.js';
import { LLMS_TXT, loadDocsIndex, readDocsPage } from './docs-index.ts';

/** `aggregation://docs/guides/errors.md`, `aggregation://docs/reference/2020-10-12/listAccounts.md`. */
export const DOCS_URI = 'aggregation://docs/';
const MARKDOWN = 'text/markdown';

export type DocsResources = { list: Resource[]; read(uri: string): ReadResourceResult | undefined };

export function docsResources(dir?: URL): DocsResources {
  const pages = loadDocsIndex(dir);
  const list: Resource[] = [
    {
      uri: `${DOCS_URI}${LLMS_TXT}`,
      name: LLMS_TXT,
      title: 'Index of the docs',
      description: 'llms.txt: every guide and every operation, with a link to its page',
      mimeType: 'text/plain',
    },
    ...pages.map((page) => ({
      uri: `${DOCS_URI}${page.path}`,
      name: page.path,
      title: page.title,
      description: [page.summary, page.section].filter(Boolean).join(' — '),
      mimeType: MARKDOWN,
    })),
  ];
  const byUri = new Map(list.map((resource) => [resource.uri, resource]));
  return {
    list,
    read(uri) {
      // Only the listed pages: a URI is looked up, never turned into a path.
      const resource = byUri.get(uri);
      if (!resource) return undefined;
      return { contents: [{ uri, mimeType: resource.mimeType, text: readDocsPage(resource.name, dir) }] };
    },
  };
}
