// What the docs add around Redoc on each reference page: a bar with the way back to the guides, the changelog and
// the console, and a version switcher; fixes for what axe-core finds in Redoc's own markup (scrollable code blocks
// and tables that a keyboard cannot reach, a search placeholder too pale to read). Added to the rendered page, so
// Redoc stays the renderer and the description stays as it is.
import { escapeHtml } from './html.ts';

export type ReferenceLink = { href: string; title: string };

export type ReferenceChrome = {
  /** The page's own document name. */
  document: string;
  /** Every reference page, versions first: the switcher's choices. */
  references: readonly (ReferenceLink & { name: string })[];
  guides: readonly ReferenceLink[];
};

const style = `<style>
.docs-bar { display: flex; flex-wrap: wrap; align-items: center; gap: .4rem 1.2rem; padding: .5rem 1rem; font: 14px/1.4 system-ui, sans-serif;
  background: #f6f8fa; border-bottom: 1px solid #d0d7de; color: #1f2328; }
.docs-bar a { color: #0550ae; } .docs-bar ul { display: flex; flex-wrap: wrap; gap: .2rem .9rem; list-style: none; margin: 0; padding: 0; }
.docs-bar .versions a { padding: .1rem .45rem; border: 1px solid #d0d7de; border-radius: 4px; text-decoration: none; }
.docs-bar .versions a[aria-current] { background: #0550ae; border-color: #0550ae; color: #fff; font-weight: 600; }
.docs-bar .label { font-weight: 600; }
:root:not(.dark) { --search-trigger-color: #555761; }
/* Text Redoc's light theme draws too pale for its size (axe-core wants 4.5:1): the method badges, links, code
   tokens and the names of nested properties (Redoc colours them by nesting level; the level's line beside them keeps
   the colour), in shades that reach it on white and on the code blocks' grey. */
:root:not(.dark) .tag-get { --tag-color: #12703d; } :root:not(.dark) .tag-post { --tag-color: #1a56d6; }
:root:not(.dark) .tag-put { --tag-color: #9a5200; } :root:not(.dark) .tag-delete { --tag-color: #c8093c; }
:root:not(.dark) .tag-patch { --tag-color: #735a00; }
:root:not(.dark) { --color-blue-6: #0b5cd5; --code-block-tokens-string-color: #2a5fb8; --code-block-tokens-property-string-color: #2a5fb8;
  --code-block-tokens-function-color: #9c5208; --code-block-tokens-operator-color: #9c5208; --code-block-tokens-class-name-color: #9c5208;
  --code-block-tokens-comment-color: #5f6070; }
:root:not(.dark) .schema-name { color: var(--text-color-primary) !important; }
</style>`;

/**
 * Makes every region that scrolls reachable by keyboard, and names each menu button by what it shows too (a button
 * named "Example" that shows "Make a payment" becomes "Example: Make a payment"), as Redoc renders and re-renders them.
 */
const focusScript = `<script>(() => {
  const scrolls = (element) => {
    const style = getComputedStyle(element);
    const x = element.scrollWidth > element.clientWidth && /auto|scroll/.test(style.overflowX);
    const y = element.scrollHeight > element.clientHeight && /auto|scroll/.test(style.overflowY);
    return x || y;
  };
  const mark = () => {
    for (const element of document.querySelectorAll('pre, .md-table-wrapper, [class*="table-wrapper"], div[data-component-name] > div')) {
      if (element.hasAttribute('tabindex') || !scrolls(element)) continue;
      element.setAttribute('tabindex', '0');
      if (!element.hasAttribute('role')) element.setAttribute('role', 'region');
      if (!element.hasAttribute('aria-label')) element.setAttribute('aria-label', element.tagName === 'PRE' ? 'Code' : 'Scrollable content');
    }
    for (const button of document.querySelectorAll('button[aria-label]')) {
      const label = button.dataset.label ?? button.getAttribute('aria-label');
      button.dataset.label = label;
      const text = button.textContent.replace(/\\s+/g, ' ').trim();
      const name = text && !label.toLowerCase().includes(text.toLowerCase()) ? label + ': ' + text : label;
      if (button.getAttribute('aria-label') !== name) button.setAttribute('aria-label', name);
    }
  };
  let queued = false;
  const schedule = () => { if (!queued) { queued = true; requestAnimationFrame(() => { queued = false; mark(); }); } };
  new MutationObserver(schedule).observe(document.documentElement, { childList: true, characterData: true, subtree: true });
  addEventListener('resize', schedule);
  addEventListener('load', schedule);
  schedule();
  // The version switcher keeps the place in the page: the same operation or section, when the other version has it.
  for (const link of document.querySelectorAll('.docs-bar .versions a')) {
    link.addEventListener('click', () => {
      const route = location.pathname.split('.html')[1] || '';
      link.href = link.getAttribute('href').split(/[?#]/)[0] + route + location.search + location.hash;
    });
  }
})();</script>`;

function bar(chrome: ReferenceChrome): string {
  const link = (item: ReferenceLink) => `<li><a href="${escapeHtml(item.href)}">${escapeHtml(item.title)}</a></li>`;
  const versions = chrome.references
    .map(
      (reference) =>
        `<li><a href="${escapeHtml(reference.href)}"${reference.name === chrome.document ? ' aria-current="page"' : ''}>${escapeHtml(reference.name)}</a></li>`,
    )
    .join('');
  return `<header class="docs-bar">
<nav aria-label="Documentation"><ul>${link({ href: 'index.html', title: 'Overview' })}${chrome.guides.map(link).join('')}${link({ href: 'changelog.html', title: 'Changelog' })}${link({ href: 'try/index.html', title: 'Try it' })}</ul></nav>
<nav aria-label="Versions" class="versions"><span class="label" id="versions-label">Version</span> <ul aria-labelledby="versions-label">${versions}</ul></nav>
</header>`;
}

/** The page with the bar before Redoc's markup, the fixes in its head, and the focus script at its end. */
export function addReferenceChrome(html: string, chrome: ReferenceChrome): string {
  for (const marker of ['</head>', '<body>', '</body>']) {
    if (!html.includes(marker)) throw new Error(`The rendered page has no ${marker}`);
  }
  const withBar = html.replace('</head>', `${style}\n</head>`).replace('<body>', `<body>\n${bar(chrome)}`);
  const end = withBar.lastIndexOf('</body>');
  return `${withBar.slice(0, end)}${focusScript}\n${withBar.slice(end)}`;
}
