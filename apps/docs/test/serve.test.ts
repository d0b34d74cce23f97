import assert from 'node:assert/strict';
import { Hono } from 'hono';
import { describe, it } from 'vitest';
import { docsApp } from '../src/index.ts';

describe('docsApp mounted under /docs', () => {
  const app = new Hono();
  app.route('/docs', docsApp());
  app.notFound((c) => c.json({ error: { code: 'not_found' } }, 404));

  it('redirects /docs to /docs/ so the index links resolve', async () => {
    const response = await app.request('/docs');
    assert.equal(response.status, 301);
    assert.equal(response.headers.get('location'), '/docs/');
  });

  it('serves the index and the pages as HTML, and the decorated bundles as JSON', async () => {
    for (const path of ['/docs/', '/docs/index.html', '/docs/2020-10-12.html', '/docs/sandbox.html']) {
      const response = await app.request(path);
      assert.equal(response.status, 200, path);
      assert.match(response.headers.get('content-type') ?? '', /^text\/html/, path);
      await response.arrayBuffer();
    }
    const bundle = await app.request('/docs/2019-07-01.json');
    assert.equal(bundle.status, 200);
    assert.equal(((await bundle.json()) as { info: { version: string } }).info.version, '2019-07-01');
  });

  it('answers 404 outside the built files', async () => {
    for (const path of ['/docs/nothing.html', '/docs/../package.json', '/docs/%2e%2e/package.json', '/package.json']) {
      const response = await app.request(path);
      assert.equal(response.status, 404, path);
    }
  });
});

describe('docsApp before the docs are built', () => {
  it('answers 503 with the command that builds them', async () => {
    const app = new Hono();
    app.route('/docs', docsApp({ root: '/nonexistent/docs' }));
    const response = await app.request('/docs/');
    assert.equal(response.status, 503);
    assert.match(await response.text(), /npm run build -w @aggregation\/docs/);
  });
});
