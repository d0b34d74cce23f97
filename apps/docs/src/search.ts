// Search over the guides, in the browser: the build writes an index of every guide's sections (search-index.json),
// and a script on each page fetches it on first use and lists the sections that hold every word typed.
import { Marked, type Tokens } from 'marked';
import { escapeHtml } from './html.ts';

export const searchIndexFile = 'search-index.json';

export type SearchEntry = { guide: string; heading: string; href: string; text: string };

/** One entry per section of each guide (the text under one heading), linked to its anchor. */
export function buildSearchIndex(
  guides: readonly { name: string; title: string; markdown: string }[],
  headingId: (text: string) => string,
): SearchEntry[] {
  const entries: SearchEntry[] = [];
  for (const guide of guides) {
    let current: SearchEntry = { guide: guide.title, heading: guide.title, href: `guides/${guide.name}.html`, text: '' };
    entries.push(current);
    for (const token of new Marked().lexer(guide.markdown)) {
      if (token.type === 'heading' && (token as Tokens.Heading).depth > 1) {
        const heading = (token as Tokens.Heading).text;
        current = { guide: guide.title, heading, href: `guides/${guide.name}.html#${headingId(heading)}`, text: '' };
        entries.push(current);
      } else if (token.type !== 'heading') {
        current.text += ` ${token.raw.replace(/\s+/g, ' ')}`;
      }
    }
  }
  for (const entry of entries) entry.text = entry.text.trim().slice(0, 4000);
  return entries;
}

/** The form every site page carries; `base` leads from the page to the docs' root. */
export function searchForm(base: string): string {
  return `<form class="search" role="search" data-base="${escapeHtml(base)}" onsubmit="return false">
<label for="guide-search">Search the guides</label>
<input id="guide-search" type="search" autocomplete="off" aria-describedby="guide-search-status">
<p id="guide-search-status" class="search-status" role="status" aria-live="polite"></p>
<ul id="guide-search-results" class="search-results"></ul>
</form>`;
}

export const searchStyle = `
form.search { margin-bottom: 1rem; } form.search label { display: block; font-size: 13px; font-weight: 600; margin-bottom: .2rem; }
form.search input { width: 100%; box-sizing: border-box; font: inherit; padding: .3rem .4rem; border: 1px solid #6e7781; border-radius: 4px; }
.search-status { font-size: 13px; color: #59636e; margin: .3rem 0; min-height: 1em; }
.search-results { list-style: none; padding: 0; margin: 0; font-size: 14px; } .search-results li { margin: .3rem 0; }
.search-results small { display: block; color: #59636e; }
`;

/** Plain browser JavaScript (inlined in each page): no build step, no dependency. */
export const searchScript = `(() => {
  const form = document.querySelector('form.search');
  if (!form) return;
  const input = form.querySelector('input');
  const status = form.querySelector('.search-status');
  const results = form.querySelector('.search-results');
  const base = form.dataset.base || '';
  let index;
  const load = () => (index ??= fetch(base + '${searchIndexFile}').then((response) => response.json()));
  const words = (text) => text.toLowerCase().split(/[^a-z0-9_.-]+/).filter(Boolean);
  async function search() {
    const query = words(input.value);
    results.replaceChildren();
    if (query.length === 0) { status.textContent = ''; return; }
    const entries = await load();
    const found = entries
      .map((entry) => {
        const heading = entry.heading.toLowerCase();
        const text = (entry.heading + ' ' + entry.text).toLowerCase();
        if (!query.every((word) => text.includes(word))) return undefined;
        return { entry, score: query.filter((word) => heading.includes(word)).length };
      })
      .filter(Boolean)
      .sort((a, b) => b.score - a.score)
      .slice(0, 8);
    status.textContent = found.length === 0 ? 'No section of the guides matches.' : found.length + (found.length === 1 ? ' section' : ' sections') + ' of the guides';
    for (const { entry } of found) {
      const item = document.createElement('li');
      const link = document.createElement('a');
      link.href = base + entry.href;
      link.textContent = entry.heading;
      const guide = document.createElement('small');
      guide.textContent = entry.guide;
      item.append(link, guide);
      results.append(item);
    }
  }
  input.addEventListener('input', () => { search().catch((error) => { status.textContent = 'Search is unavailable: ' + error.message; }); });
})();`;
