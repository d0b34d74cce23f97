// Each page in a real browser: served the way the server serves it (under /docs), it renders every operation
// and every webhook event of its bundle, with the code samples, logs no console error and loads nothing from
// elsewhere. A screenshot of each page goes to artifacts/screenshots/<page>.png.
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { chromiumArgs, findChromium, skipWhenMissing } from '@aggregation/test-support';
import { createAdaptorServer } from '@hono/node-server';
import { Hono } from 'hono';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { documentNames, type OpenApiDocument, operationsOf, webhooksOf } from '../src/documents.ts';
import { loadGuides } from '../src/guides.ts';
import { docsApp } from '../src/index.ts';
import { docsDir, screenshotsDir } from '../src/paths.ts';

const chromiumPath = findChromium();
const skip = skipWhenMissing('the browser tests', !chromiumPath && "Chromium is not installed (Debian's chromium, or set CHROMIUM_PATH)");
const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

type Problems = { console: string[]; external: string[] };
type CodeSample = { lang: string; label: string; source: string };

function decorated(name: string): OpenApiDocument {
  return JSON.parse(readFileSync(join(docsDir, `${name}.json`), 'utf8')) as OpenApiDocument;
}

describe('docs in Chromium', { timeout: 180_000 }, () => {
  let browser: Browser;
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
    mkdirSync(screenshotsDir, { recursive: true });
  });

  afterAll(async () => {
    await browser?.close();
    await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
  });

  async function open(path: string): Promise<{ page: Page; problems: Problems }> {
    const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
    const page = await context.newPage();
    const problems: Problems = { console: [], external: [] };
    page.on('console', (message) => {
      if (message.type() === 'error') problems.console.push(message.text());
    });
    page.on('pageerror', (error) => problems.console.push(error.message));
    // The docs must work offline: anything not from this origin is refused and reported.
    await page.route(
      (url) => url.origin !== origin && url.protocol.startsWith('http'),
      async (route) => {
        problems.external.push(route.request().url());
        await route.abort();
      },
    );
    const response = await page.goto(`${origin}${path}`, { waitUntil: 'load' });
    assert.equal(response?.status(), 200, path);
    return { page, problems };
  }

  function clean(problems: Problems, label: string): void {
    assert.deepEqual(problems.console, [], `${label}: console errors`);
    assert.deepEqual(problems.external, [], `${label}: requests outside the docs`);
  }

  /** The visible text of the links in the page, whitespace collapsed. */
  async function linkTexts(page: Page): Promise<string[]> {
    return page.locator('a').evaluateAll((links) => links.map((link) => (link as HTMLElement).innerText.replace(/\s+/g, ' ').trim()));
  }

  const menuLink = (page: Page, text: RegExp) => page.locator('[data-component-name="Menu/MenuItem"] a').filter({ hasText: text }).first();
  const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  // A webhook's heading ends with a "Webhook" badge.
  const heading = (page: Page, text: string) =>
    page
      .locator('h1, h2')
      .filter({ hasText: new RegExp(`^\\s*${escapeRegExp(text)}\\s*(Webhook)?\\s*$`) })
      .first();

  /** Opens a menu entry (a tag, an operation, a webhook) and waits for its heading. */
  async function show(page: Page, entry: RegExp, title: string): Promise<void> {
    await menuLink(page, entry).click({ timeout: 10_000 });
    await heading(page, title).waitFor({ timeout: 10_000 });
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
      await page.locator('pre').filter({ hasText: source }).first().waitFor({ timeout: 10_000 });
    }
    // Back to the first language, which the checks of the other operations expect.
    await choose(shown, samples[0]!.label);
  }

  for (const name of documentNames) {
    it.skipIf(skip)(`${name}.html shows every operation and webhook event with its samples`, async () => {
      const document = decorated(name);
      const operations = operationsOf(document);
      const webhooks = webhooksOf(document);
      const { page, problems } = await open(`/docs/${name}.html`);
      await page.locator('[data-component-name="Menu/MenuItem"]').first().waitFor();

      // Redoc groups operations by their first tag; one without tags goes under "default".
      const tagOf = (operation: (typeof operations)[number]) => operation.tags[0] ?? 'default';
      const tags = [...new Set(operations.map(tagOf))];
      for (const tag of tags) {
        await show(page, new RegExp(`^\\s*${escapeRegExp(tag)}\\s*$`), tag);
        for (const operation of operations.filter((item) => tagOf(item) === tag)) {
          const method = operation.method.toUpperCase();
          // The menu entry is the summary, then the method (lowercase in the DOM, uppercase on screen).
          await show(page, new RegExp(`^\\s*${escapeRegExp(operation.summary)}\\s*${method}\\s*$`, 'i'), operation.summary);
          // The first sample (curl) is shown in full; the others sit behind the language menu.
          const [sample] = operation.operation['x-codeSamples'] as CodeSample[];
          const source = sample!.source.replace(/\s+/g, ' ').trim();
          await page.locator('pre').filter({ hasText: source }).first().waitFor({ timeout: 10_000 });
          await page.getByText(operation.path, { exact: true }).first().waitFor({ timeout: 10_000 });
          if (operation === operations[0]) {
            // The page's picture: its first operation, with the code samples beside it.
            await page.screenshot({ path: join(screenshotsDir, `${name}.png`) });
            await everyLanguage(page, operation.operation['x-codeSamples'] as CodeSample[]);
          }
        }
      }

      if (webhooks.length > 0) {
        await show(page, /^\s*Webhooks\s*$/, 'Webhooks');
        const links = await linkTexts(page);
        for (const webhook of webhooks) {
          const method = webhook.method.toUpperCase();
          assert.ok(links.includes(`${method} ${webhook.name}`), `${name}: webhook ${webhook.name} is not listed`);
          await show(page, new RegExp(`^\\s*${escapeRegExp(webhook.summary)}\\s*${method}\\s*$`, 'i'), webhook.summary);
        }
        await page.screenshot({ path: join(screenshotsDir, `${name}-webhooks.png`) });
      }
      clean(problems, name);
      await page.context().close();
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
    await page.locator(`main a[href="${current}.html"]`).click();
    await page.waitForURL(`**/docs/${current}.html**`);
    await page.locator('[data-component-name="Menu/MenuItem"]').first().waitFor();
    clean(problems, 'index');
    await page.context().close();
  });

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
      const { page, problems } = await open(path);
      clean(problems, path);
      const links = await page.locator('a[href]').evaluateAll((anchors) => anchors.map((anchor) => (anchor as HTMLAnchorElement).href));
      await page.context().close();
      for (const href of links) {
        const url = new URL(href);
        if (url.origin !== origin) continue;
        checked++;
        const target = url.pathname.endsWith('/') ? `${url.pathname}index.html` : url.pathname;
        const reference = documentNames.some((name) => target === `/docs/${name}.html`);
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

  /** axe-core's serious and critical findings on the page as it is now. */
  async function seriousViolations(page: Page): Promise<string[]> {
    await page.addScriptTag({ content: axeSource });
    const violations = await page.evaluate(async () => {
      const result = await (
        globalThis as unknown as {
          axe: { run(context: Document): Promise<{ violations: { id: string; impact: string; nodes: { target: string[] }[] }[] }> };
        }
      ).axe.run(document);
      return result.violations.map((violation) => ({
        id: violation.id,
        impact: violation.impact,
        targets: violation.nodes.map((node) => node.target.join(' ')),
      }));
    });
    return violations
      .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
      .map((violation) => `${violation.impact} ${violation.id}: ${violation.targets.slice(0, 5).join(', ')}`);
  }

  it.skipIf(skip)('axe-core finds no serious or critical violation on any page: index, guides, references, console, changelog', async () => {
    const pages = ['/docs/index.html', ...loadGuides().map((guide) => `/docs/guides/${guide.name}.html`), '/docs/try/', '/docs/changelog.html'];
    const found: string[] = [];
    for (const path of [...pages, ...documentNames.map((name) => `/docs/${name}.html`)]) {
      const { page, problems } = await open(path);
      if (documentNames.some((name) => path === `/docs/${name}.html`)) {
        // Redoc's pre-rendered page, once the page's script has made its scrolling regions reachable by keyboard.
        await page.locator('[data-component-name="Menu/MenuItem"]').first().waitFor({ state: 'attached' });
        // Two frames: the script marks them in an animation frame after each change.
        for (let frame = 0; frame < 2; frame++) await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(resolve)));
      }
      for (const violation of await seriousViolations(page)) found.push(`${path}: ${violation}`);
      clean(problems, path);
      await page.context().close();
    }
    assert.deepEqual(found, []);
  });

  it.skipIf(skip)('the search box finds sections of the guides and links them', async () => {
    const { page, problems } = await open('/docs/guides/errors.html');
    await page.getByLabel('Search the guides').fill('idempotency key');
    const first = page.locator('#guide-search-results a').first();
    await first.waitFor({ timeout: 10_000 });
    assert.match(await page.locator('#guide-search-status').innerText(), /\d+ sections? of the guides/);
    const href = await first.getAttribute('href');
    assert.match(href ?? '', /^\.\.\/guides\/[\w-]+\.html(#[\w-]+)?$/);
    await first.click();
    await page.waitForURL(/\/docs\/guides\//);
    clean(problems, 'search');
    await page.context().close();
  });

  it.skipIf(skip)("a reference page's version switcher opens the other version, and its Try it link opens the console on that operation", async () => {
    const { page, problems } = await open('/docs/2020-10-12.html');
    await page.locator('.docs-bar .versions a', { hasText: '2019-07-01' }).click();
    await page.waitForURL(/\/docs\/2019-07-01\.html/);
    await page.locator('[data-component-name="Menu/MenuItem"]').first().waitFor();
    await show(page, /^\s*Accounts\s*$/, 'Accounts');
    await show(page, /^\s*List accounts\s*GET\s*$/i, 'List accounts');
    await page
      .locator('a', { hasText: /^Try it$/ })
      .first()
      .waitFor();
    const tryLinks = await page.locator('a', { hasText: /^Try it$/ }).evaluateAll((links) => links.map((link) => (link as HTMLAnchorElement).href));
    const listAccounts = tryLinks.find((href) => href.includes('operation=listAccounts'));
    assert.ok(listAccounts, tryLinks.join(', '));
    await page.goto(listAccounts);
    assert.equal(await page.locator('#operation').inputValue(), '2019-07-01/listAccounts');
    assert.equal(await page.getByLabel(/^Service-Version/).inputValue(), '2019-07-01');
    clean(problems, 'switcher');
    await page.context().close();
  });
});
