// Each page in a real browser: served the way the server serves it (under /docs), it renders every operation
// and every webhook event of its bundle, with the code samples, logs no console error and loads nothing from
// elsewhere. A screenshot of each page goes to artifacts/screenshots/<page>.png.
//
// One browser and one browser context for the file. A reference page (Redoc, seconds of rendering) is loaded once, in a
// tab of its own that every test about it uses; every other page is opened in one shared tab, one after another, and
// what the crawl and axe-core find on it is kept for both tests.
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { chromiumArgs, findChromium, seriousViolations, skipWhenMissing } from '@aggregation/test-support';
import { createAdaptorServer } from '@hono/node-server';
import { Hono } from 'hono';
import { type Browser, type BrowserContext, chromium, type Locator, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { HANG_GUARD_MS } from '../../../vitest.shared.ts';
import { documentNames, type OpenApiDocument, operationsOf, webhooksOf } from '../src/documents.ts';
import { loadGuides } from '../src/guides.ts';
import { docsApp } from '../src/index.ts';
import { docsDir, screenshotsDir } from '../src/paths.ts';

const chromiumPath = findChromium();
const skip = skipWhenMissing('the browser tests', !chromiumPath && "Chromium is not installed (Debian's chromium, or set CHROMIUM_PATH)");

type Problems = { console: string[]; external: string[] };
type Tab = { page: Page; problems: Problems };
type CodeSample = { lang: string; label: string; source: string };

function decorated(name: string): OpenApiDocument {
  return JSON.parse(readFileSync(join(docsDir, `${name}.json`), 'utf8')) as OpenApiDocument;
}

const referencePath = (name: string) => `/docs/${name}.html`;
const isReference = (path: string) => documentNames.some((name) => path === referencePath(name));

describe('docs in Chromium', () => {
  let browser: Browser;
  let context: BrowserContext;
  let server: ReturnType<typeof createAdaptorServer>;
  let origin: string;

  beforeAll(async () => {
    if (skip) return;
    const app = new Hono();
    app.route('/docs', docsApp());
    server = createAdaptorServer({ fetch: app.fetch });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    browser = await chromium.launch({ executablePath: chromiumPath!, args: chromiumArgs });
    context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
    // What waits for the page (an element, a click) waits as long as a loaded machine takes, and gives up, saying what
    // it waited for, only within the hang guard.
    context.setDefaultTimeout(HANG_GUARD_MS / 2);
    mkdirSync(screenshotsDir, { recursive: true });
  });

  afterAll(async () => {
    await browser?.close();
    await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
  });

  /** A tab that records its console errors and refuses (and records) every request outside the docs' origin. */
  async function newTab(): Promise<Tab> {
    const tab: Tab = { page: await context.newPage(), problems: { console: [], external: [] } };
    tab.page.on('console', (message) => {
      if (message.type() === 'error') tab.problems.console.push(message.text());
    });
    tab.page.on('pageerror', (error) => tab.problems.console.push(error.message));
    // The docs must work offline.
    await tab.page.route(
      (url) => url.origin !== origin && url.protocol.startsWith('http'),
      async (route) => {
        tab.problems.external.push(route.request().url());
        await route.abort();
      },
    );
    return tab;
  }

  async function goto(tab: Tab, path: string): Promise<void> {
    tab.problems = { console: [], external: [] };
    const response = await tab.page.goto(`${origin}${path}`, { waitUntil: 'load' });
    assert.equal(response?.status(), 200, path);
  }

  // The tab every page other than a reference is opened in, one after another.
  let shared: Promise<Tab> | undefined;
  async function open(path: string): Promise<Tab> {
    shared ??= newTab();
    const tab = await shared;
    await goto(tab, path);
    return tab;
  }

  // Each reference page, loaded once in its own tab and kept.
  const references = new Map<string, Promise<Tab>>();
  function reference(name: string): Promise<Tab> {
    if (!references.has(name)) {
      references.set(
        name,
        newTab().then(async (tab) => {
          await goto(tab, referencePath(name));
          await tab.page.locator('[data-component-name="Menu/MenuItem"]').first().waitFor();
          return tab;
        }),
      );
    }
    return references.get(name)!;
  }

  function clean(problems: Problems, label: string): void {
    assert.deepEqual(problems.console, [], `${label}: console errors`);
    assert.deepEqual(problems.external, [], `${label}: requests outside the docs`);
  }

  /** Runs `action` (a click on a link) and answers the navigation it starts with 204 No Content, so that the page stays. */
  async function navigationOf(page: Page, target: RegExp, action: () => Promise<void>): Promise<URL> {
    let requested: URL | undefined;
    const matches = (url: URL) => target.test(url.pathname);
    await page.route(matches, async (route) => {
      requested = new URL(route.request().url());
      await route.fulfill({ status: 204 });
    });
    try {
      await Promise.all([page.waitForRequest((request) => matches(new URL(request.url()))), action()]);
    } finally {
      await page.unroute(matches);
    }
    return requested!;
  }

  const menuLink = (page: Page, text: RegExp) => page.locator('[data-component-name="Menu/MenuItem"] a').filter({ hasText: text }).first();
  const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  // A webhook's heading ends with a "Webhook" badge.
  const heading = (scope: Page | Locator, text: string) =>
    scope
      .locator('h1, h2')
      .filter({ hasText: new RegExp(`^\\s*${escapeRegExp(text)}\\s*(Webhook)?\\s*$`) })
      .first();

  /** Opens a menu entry (a tag, an operation, a webhook) and waits for its heading. */
  async function show(page: Page, entry: RegExp, title: string): Promise<void> {
    await menuLink(page, entry).click();
    await heading(page, title).waitFor();
  }

  /** Brings `target` into view; Redoc may replace the element while it renders, and then the new one is scrolled to. */
  async function scrollTo(target: Locator): Promise<void> {
    for (;;) {
      try {
        await target.scrollIntoViewIfNeeded();
        return;
      } catch (error) {
        if (!/not attached to the DOM/.test(String(error))) throw error;
      }
    }
  }

  /**
   * The section a menu entry of an operation or a webhook leads to (Redoc's route, which is the section's id), with its
   * heading. The first of each page is opened with a click on the entry; the others are brought into view (which
   * renders them, as the click does, for a fraction of its work), once the entry is shown to lead there.
   */
  async function reach(page: Page, entry: RegExp, title: string, click: boolean): Promise<{ section: Locator; id: string }> {
    const link = menuLink(page, entry);
    const route = await link.getAttribute('href');
    assert.match(route ?? '', /^#\//, `${title}: the menu entry's link`);
    const id = route!.slice(1);
    const section = page.locator(`[data-section-id="${id}"]`);
    if (click) await link.click();
    else await scrollTo(section);
    await heading(section, title).waitFor();
    return { section, id };
  }

  /** The language menu offers every sample, and choosing one shows it. */
  async function everyLanguage(page: Page, samples: CodeSample[]): Promise<void> {
    const exactly = (text: string) => new RegExp(`^\\s*${escapeRegExp(text)}\\s*$`);
    const choose = async (from: string, to: string) => {
      await page
        .locator('[data-component-name="Dropdown/Dropdown"]')
        .filter({ hasText: exactly(from) })
        .first()
        .click();
      await page
        .locator('[data-component-name="Dropdown/DropdownMenuItem"]')
        .filter({ hasText: exactly(to) })
        .first()
        .click();
    };
    let shown = samples[0]!.label;
    for (const sample of samples.slice(1)) {
      await choose(shown, sample.label);
      shown = sample.label;
      const source = sample.source.replace(/\s+/g, ' ').trim();
      await page.locator('pre').filter({ hasText: source }).first().waitFor();
    }
    // Back to the first language, which the checks of the other operations expect.
    await choose(shown, samples[0]!.label);
  }

  // Each reference page walked once: every tag opened from the menu, and every operation and webhook event reached
  // from its menu entry and checked, which also has Redoc render every section (it renders them as they come into view)
  // for axe-core to check after.
  const walks = new Map<string, Promise<Tab>>();
  function walked(name: string): Promise<Tab> {
    if (!walks.has(name))
      walks.set(
        name,
        reference(name).then((tab) => walk(name, tab.page).then(() => tab)),
      );
    return walks.get(name)!;
  }

  /** Every operation (menu entry, heading, its curl sample, path and Try it link) and webhook event of the page. */
  async function walk(name: string, page: Page): Promise<void> {
    const document = decorated(name);
    const operations = operationsOf(document);
    const webhooks = webhooksOf(document);

    // Redoc groups operations by their first tag; one without tags goes under "default".
    const tagOf = (operation: (typeof operations)[number]) => operation.tags[0] ?? 'default';
    const tags = [...new Set(operations.map(tagOf))];
    for (const tag of tags) {
      await show(page, new RegExp(`^\\s*${escapeRegExp(tag)}\\s*$`), tag);
      for (const operation of operations.filter((item) => tagOf(item) === tag)) {
        const method = operation.method.toUpperCase();
        // The menu entry is the summary, then the method (lowercase in the DOM, uppercase on screen).
        const entry = new RegExp(`^\\s*${escapeRegExp(operation.summary)}\\s*${method}\\s*$`, 'i');
        const { section, id } = await reach(page, entry, operation.summary, operation === operations[0]);
        // Looked for in the operation's own section (Redoc's id ends with the operationId, in lower case): a sample,
        // path or link shown only under another operation does not count for this one.
        assert.match(id, new RegExp(`/${operation.operationId.toLowerCase()}$`));
        // The first sample (curl) is shown in full; the others sit behind the language menu.
        const [sample] = operation.operation['x-codeSamples'] as CodeSample[];
        const source = sample!.source.replace(/\s+/g, ' ').trim();
        await section.locator('pre').filter({ hasText: source }).first().waitFor();
        await section.getByText(operation.path, { exact: true }).first().waitFor();
        // Its way to the console, with it chosen.
        await section
          .locator(`a[href*="document=${name}&"][href*="operation=${operation.operationId}"]`, { hasText: /^Try it$/ })
          .first()
          .waitFor({ state: 'attached' });
        if (operation === operations[0]) {
          // The page's picture: its first operation, with the code samples beside it.
          await page.screenshot({ path: join(screenshotsDir, `${name}.png`) });
          await everyLanguage(page, operation.operation['x-codeSamples'] as CodeSample[]);
        }
      }
    }

    if (webhooks.length > 0) {
      await show(page, /^\s*Webhooks\s*$/, 'Webhooks');
      for (const webhook of webhooks) {
        const method = webhook.method.toUpperCase();
        // Redoc renders a section as it comes into view: the event's link is waited for, not read at once.
        await page
          .locator('a')
          // Its text is `post` and the event's name, uppercased by the style (as innerText gives it).
          .filter({ hasText: new RegExp(`^\\s*${method}\\s*${escapeRegExp(webhook.name)}\\s*$`, 'i') })
          .first()
          .waitFor({ state: 'attached' });
        await reach(page, new RegExp(`^\\s*${escapeRegExp(webhook.summary)}\\s*${method}\\s*$`, 'i'), webhook.summary, webhook === webhooks[0]);
      }
      await page.screenshot({ path: join(screenshotsDir, `${name}-webhooks.png`) });
    }
  }

  for (const name of documentNames) {
    it.skipIf(skip)(`${name}.html shows every operation and webhook event with its samples and its Try it link`, async () => {
      const { problems } = await walked(name);
      clean(problems, name);
    });
  }

  it.skipIf(skip)('index.html lists the versions, marks the current one, shows the changes and links the pages', async () => {
    const { page, problems } = await open('/docs');
    assert.equal(new URL(page.url()).pathname, '/docs/');
    const current = await page.locator('#current-version').innerText();
    const rows = await page.locator('table.pages tbody tr').allInnerTexts();
    assert.ok(rows.some((row) => row.includes(current) && row.includes('current')));
    assert.ok(await page.locator('section.diff h2').first().isVisible());
    await page.screenshot({ path: join(screenshotsDir, 'index.png'), fullPage: true });
    for (const name of documentNames) {
      const link = page.locator(`main a[href="${name}.html"]`);
      assert.equal(await link.count(), 1, name);
    }
    // The current version's link opens its page (which its own test renders).
    const opened = await navigationOf(page, new RegExp(`^${escapeRegExp(referencePath(current))}$`), () =>
      page.locator(`main a[href="${current}.html"]`).click(),
    );
    assert.equal(opened.pathname, referencePath(current));
    clean(problems, 'index');
  });

  type Visit = { links: string[]; problems: Problems; violations: string[] };
  const visits = new Map<string, Promise<Visit>>();
  /** A page other than a reference, opened once: the links it holds, its problems, and axe-core's serious findings. */
  function visit(path: string): Promise<Visit> {
    if (!visits.has(path)) {
      visits.set(
        path,
        open(path).then(async ({ page, problems }) => {
          const links = await page.locator('a[href]').evaluateAll((anchors) => anchors.map((anchor) => (anchor as HTMLAnchorElement).href));
          const violations = await seriousViolations(page);
          return { links, problems, violations };
        }),
      );
    }
    return visits.get(path)!;
  }

  it.skipIf(skip)('every link of the site leads to a page, and every #anchor of a guide or the index to its place', async () => {
    // From the index, through the guides (and the index's links into the references): every page the site's own
    // pages link to answers 200, and a link to an anchor of a non-reference page finds an element with that id.
    const queue = ['/docs/index.html'];
    const visited = new Set<string>();
    const broken: string[] = [];
    let checked = 0;
    while (queue.length > 0) {
      const path = queue.shift()!;
      if (visited.has(path)) continue;
      visited.add(path);
      const { links, problems } = await visit(path);
      clean(problems, path);
      for (const href of links) {
        const url = new URL(href);
        if (url.origin !== origin) continue;
        checked++;
        const target = url.pathname.endsWith('/') ? `${url.pathname}index.html` : url.pathname;
        const reference = isReference(target);
        if (!reference && target.endsWith('.html')) queue.push(target);
        const response = await fetch(`${origin}${target}`);
        if (response.status !== 200) {
          broken.push(`${path} -> ${href}: ${response.status}`);
          continue;
        }
        // Redoc routes its own anchors; the other pages must hold the element they point at.
        if (url.hash && !reference && target.endsWith('.html')) {
          const id = decodeURIComponent(url.hash.slice(1));
          if (!(await response.text()).includes(`id="${id}"`)) broken.push(`${path} -> ${href}: no element #${id}`);
        }
      }
    }
    assert.deepEqual(broken, []);
    assert.ok(visited.size > 6, `${visited.size} pages visited`);
    console.log(`# ${visited.size} pages crawled, ${checked} links checked`);
  });

  it.skipIf(skip)('axe-core finds no serious or critical violation on any page: index, guides, references, console, changelog', async () => {
    const pages = [
      '/docs/index.html',
      ...loadGuides().map((guide) => `/docs/guides/${guide.name}.html`),
      '/docs/try/index.html',
      '/docs/changelog.html',
    ];
    const found: string[] = [];
    for (const path of pages) {
      const { problems, violations } = await visit(path);
      for (const violation of violations) found.push(`${path}: ${violation}`);
      clean(problems, path);
    }
    for (const name of documentNames) {
      // Every section rendered, once the page's script has made its scrolling regions reachable by keyboard and named
      // its menu buttons: it does so in an animation frame after each change, so two frames.
      const { page, problems } = await walked(name);
      for (let frame = 0; frame < 2; frame++) await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(resolve)));
      for (const violation of await seriousViolations(page)) found.push(`${referencePath(name)}: ${violation}`);
      clean(problems, name);
    }
    assert.deepEqual(found, []);
  });

  it.skipIf(skip)('the search box finds sections of the guides and links them', async () => {
    const { page, problems } = await open('/docs/guides/errors.html');
    await page.getByLabel('Search the guides').fill('idempotency key');
    const first = page.locator('#guide-search-results a').first();
    await first.waitFor();
    assert.match(await page.locator('#guide-search-status').innerText(), /\d+ sections? of the guides/);
    const href = await first.getAttribute('href');
    assert.match(href ?? '', /^\.\.\/guides\/[\w-]+\.html(#[\w-]+)?$/);
    await first.click();
    await page.waitForURL(/\/docs\/guides\//);
    clean(problems, 'search');
  });

  it.skipIf(skip)("a reference page's version switcher opens the other version, and a Try it link opens the console on its operation", async () => {
    const { page, problems } = await reference('2020-10-12');
    // It keeps the place in the page: Redoc's route after `.html` (the request carries no #hash).
    const route = new URL(page.url()).pathname.slice(referencePath('2020-10-12').length);
    const opened = await navigationOf(page, /^\/docs\/2019-07-01\.html/, () =>
      page.locator('.docs-bar .versions a', { hasText: '2019-07-01' }).click(),
    );
    assert.equal(opened.pathname, `${referencePath('2019-07-01')}${route}`);
    clean(problems, 'switcher');

    // The link each operation of the older version's page carries (its test finds it there).
    const console = await open('/docs/try/?document=2019-07-01&operation=listAccounts');
    assert.equal(await console.page.locator('#operation').inputValue(), '2019-07-01/listAccounts');
    assert.equal(await console.page.getByLabel(/^Service-Version/).inputValue(), '2019-07-01');
    clean(console.problems, 'console');
  });
});
