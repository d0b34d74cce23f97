// The guides: Markdown files in guides/, each with a front matter (title, summary), rendered into pages of the docs
// site beside the references. Their code blocks are programs: the polyglot tests run every one against the sandbox
// server, except those whose info string says `display` (a command to start a server, a value to fill in); a block
// marked `fails` shows an error on purpose, and must end with one (curl runs with --fail-with-body).
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { currentVersion, loadBundle } from '@aggregation/openapi/contract';
import { errorCodesMarker, errorCodesOf, errorCodesTable } from '@aggregation/openapi/error-codes';
import { Marked, type Tokens } from 'marked';
import { parse } from 'yaml';
import { generatorMatrix, generatorMatrixMarker } from './generator-matrix.ts';
import { escapeHtml } from './html.ts';
import { faviconLink } from './offline.ts';
import { searchForm, searchScript, searchStyle } from './search.ts';

export const guidesDir = fileURLToPath(new URL('../guides', import.meta.url));

/** The order of the guides in the navigation: getting started first. */
export const guideOrder = [
  'quickstart',
  'webhooks',
  'sandbox',
  'errors',
  'versioning',
  'pagination',
  'generate-a-client',
  'test-your-integration',
  'agents',
] as const;

export type Guide = { name: string; title: string; summary: string; markdown: string; file: string };

/** Languages whose blocks are run, with the word of the info string that names them. */
export const runnableLanguages = ['sh', 'ts', 'python', 'go'] as const;
export type RunnableLanguage = (typeof runnableLanguages)[number];

export type CodeBlock = { guide: string; line: number; language: string; runnable: boolean; fails: boolean; source: string };

const labels: Record<string, string> = { sh: 'Shell', ts: 'TypeScript', python: 'Python', go: 'Go', text: 'Output', json: 'JSON' };

/** Every guide of guides/, in navigation order; a guide missing from the order fails the build. */
export function loadGuides(dir: string = guidesDir): Guide[] {
  const files = readdirSync(dir).filter((file) => file.endsWith('.md'));
  const guides = files.map((file) => {
    const text = readFileSync(join(dir, file), 'utf8');
    const match = /^---\n([\s\S]*?)\n---\n/.exec(text);
    if (!match) throw new Error(`${file}: no front matter (title, summary)`);
    const meta = parse(match[1]!) as { title?: string; summary?: string };
    if (!meta.title || !meta.summary) throw new Error(`${file}: the front matter needs a title and a summary`);
    // Expanded here so that the Markdown and the lines of its code blocks are what the page shows.
    const markdown = text
      .slice(match[0].length)
      .replace(errorCodesMarker, errorCodesTable(errorCodesOf(loadBundle(currentVersion))))
      .replace(generatorMatrixMarker, () => generatorMatrix());
    return { name: file.slice(0, -3), title: meta.title, summary: meta.summary, markdown, file: join(dir, file) };
  });
  const unknown = guides.filter((guide) => !(guideOrder as readonly string[]).includes(guide.name)).map((guide) => guide.name);
  if (unknown.length > 0) throw new Error(`guides missing from guideOrder: ${unknown.join(', ')}`);
  return guides.sort((a, b) => guideOrder.indexOf(a.name as never) - guideOrder.indexOf(b.name as never));
}

/** The language and flags of a fenced block's info string (```sh display). */
function infoOf(lang: string | undefined): { language: string; display: boolean; fails: boolean } {
  const [language = '', ...flags] = (lang ?? '').trim().split(/\s+/);
  return { language, display: flags.includes('display'), fails: flags.includes('fails') };
}

/** The code blocks of a guide, with the line of the guide's Markdown each starts on (after the front matter). */
export function codeBlocksOf(guide: Guide): CodeBlock[] {
  const blocks: CodeBlock[] = [];
  let offset = 0;
  for (const token of new Marked().lexer(guide.markdown)) {
    const at = guide.markdown.indexOf(token.raw, offset);
    if (at >= 0) offset = at + token.raw.length;
    if (token.type !== 'code') continue;
    const { language, display, fails } = infoOf((token as Tokens.Code).lang);
    blocks.push({
      guide: guide.name,
      line: guide.markdown.slice(0, Math.max(at, 0)).split('\n').length,
      language,
      runnable: !display && (runnableLanguages as readonly string[]).includes(language),
      fails,
      source: `${(token as Tokens.Code).text}\n`,
    });
  }
  return blocks;
}

/** The id of a heading's element, from its text: `## 2. Make an enrollment` is `#2-make-an-enrollment`. */
export function headingId(text: string): string {
  return text
    .toLowerCase()
    .replace(/<[^>]+>/g, '')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
}

const markdown = new Marked({
  renderer: {
    code({ text, lang }) {
      const { language } = infoOf(lang);
      const label = labels[language] ?? language;
      return `<figure class="code" data-language="${escapeHtml(language)}">${label ? `<figcaption>${escapeHtml(label)}</figcaption>` : ''}<pre tabindex="0"><code>${escapeHtml(text)}</code></pre></figure>\n`;
    },
    heading({ tokens, depth, text }) {
      const id = headingId(text);
      return `<h${depth} id="${id}">${this.parser.parseInline(tokens)}</h${depth}>\n`;
    },
  },
});

export const siteStyle = `${searchStyle}
body { font: 16px/1.6 system-ui, sans-serif; color: #1f2328; margin: 0; }
.site { display: grid; grid-template-columns: 15rem 1fr; min-height: 100vh; }
nav.site-nav { background: #f6f8fa; border-right: 1px solid #d0d7de; padding: 1.5rem 1rem; font-size: 15px; }
nav.site-nav h2 { font-size: 12px; text-transform: uppercase; letter-spacing: .05em; color: #59636e; margin: 1.2rem 0 .4rem; border: 0; }
nav.site-nav ul { list-style: none; margin: 0; padding: 0; } nav.site-nav li { margin: .2rem 0; }
nav.site-nav a[aria-current] { font-weight: 600; color: #1f2328; }
main { max-width: 52rem; padding: 2rem 2.5rem 4rem; }
h1 { margin-bottom: .25rem; } h2 { margin-top: 2.5rem; border-bottom: 1px solid #d0d7de; padding-bottom: .3rem; }
table { border-collapse: collapse; width: 100%; margin: .5rem 0 1rem; font-size: 15px; }
th, td { text-align: left; vertical-align: top; padding: .4rem .6rem; border-bottom: 1px solid #d0d7de; }
thead th { background: #f6f8fa; }
code { font: 13px/1.45 ui-monospace, monospace; background: #f6f8fa; padding: .1rem .3rem; border-radius: 4px; }
figure.code { margin: 1rem 0; border: 1px solid #d0d7de; border-radius: 6px; overflow: hidden; }
figure.code figcaption { font-size: 12px; color: #59636e; background: #f6f8fa; padding: .25rem .75rem; border-bottom: 1px solid #d0d7de; }
figure.code pre { margin: 0; padding: .75rem; overflow-x: auto; background: #fff; }
figure.code pre code { background: none; padding: 0; }
a { color: #0969da; }
td ul { margin: 0; padding-left: 1.1rem; }
.pages th { white-space: nowrap; }
.clients td code { word-break: break-all; }
.current { color: #1a7f37; } .added { color: #1a7f37; } .removed { color: #cf222e; } .changed { color: #9a6700; }
`;

export type SiteLink = { href: string; title: string };

/**
 * The navigation of every page that is not a reference: the start page, the guides, the references. `base` leads
 * from the page to the site's root (`''` on the index, `'../'` on a guide); `current` is the page's path from there.
 */
export function siteNav(guides: readonly Guide[], references: readonly SiteLink[], current: string, base: string): string {
  const item = (link: SiteLink) =>
    `<li><a href="${escapeHtml(base + link.href)}"${link.href === current ? ' aria-current="page"' : ''}>${escapeHtml(link.title)}</a></li>`;
  return `<nav class="site-nav" aria-label="Documentation">
${searchForm(base)}
<ul>${item({ href: 'index.html', title: 'Overview' })}${item({ href: 'try/index.html', title: 'Try it' })}${item({ href: 'changelog.html', title: 'Changelog' })}</ul>
<h2>Guides</h2><ul>${guides.map((guide) => item({ href: guidePath(guide), title: guide.title })).join('')}</ul>
<h2>Reference</h2><ul>${references.map(item).join('')}</ul>
<h2>For programs</h2><ul>${item({ href: 'llms.txt', title: 'llms.txt' })}${item({ href: 'llms-full.txt', title: 'llms-full.txt' })}</ul>
</nav>`;
}

/** Where a guide's page is, from the site's root. */
export const guidePath = (guide: Pick<Guide, 'name'>) => `guides/${guide.name}.html`;

/** A page of the site: the navigation beside the content. */
export function sitePage(title: string, nav: string, content: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
${faviconLink}
<style>${siteStyle}</style>
</head>
<body>
<div class="site">
${nav}
<main>
${content}
</main>
</div>
<script>${searchScript}</script>
</body>
</html>
`;
}

/** The page of one guide. */
export function renderGuide(guide: Guide, guides: readonly Guide[], references: readonly SiteLink[]): string {
  const body = `${markdown.parse(guide.markdown, { async: false })}<p class="alternate">This guide <a href="${escapeHtml(guide.name)}.md">as Markdown</a>; every operation it names is in the reference (navigation), each with a link to try it.</p>\n`;
  return sitePage(`${guide.title}: guides`, siteNav(guides, references, guidePath(guide), '../'), body);
}
