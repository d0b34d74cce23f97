// Serves the built docs under a prefix of any Hono app: `app.route('/docs', docsApp())`.
import { existsSync } from 'node:fs';
import { serveStatic } from '@hono/node-server/serve-static';
import { Hono, type MiddlewareHandler } from 'hono';
import { docsDir } from './paths.ts';

export type DocsAppOptions = {
  /** Folder of the built docs (default: this package's dist/). */
  root?: string;
};

export function docsApp(options: DocsAppOptions = {}): Hono {
  const root = options.root ?? docsDir;
  const app = new Hono();
  // The index and the console link their pages relatively, so they must be read from ".../docs/", not ".../docs".
  const withSlash: MiddlewareHandler = async (c, next) => {
    if (!c.req.path.endsWith('/')) return c.redirect(`${c.req.path}/${new URL(c.req.url).search}`, 301);
    return next();
  };
  app.get('/', withSlash);
  app.get('/try', withSlash);
  // Made on first use: an app created before the docs are built still serves them once they are.
  let files: MiddlewareHandler | undefined;
  app.use('*', async (c, next) => {
    if (!existsSync(root)) return c.text('The docs are not built yet: npm run build -w @aggregation/docs', 503);
    files ??= serveStatic({
      root,
      // Mounted under a prefix: keep only the part of the path after it.
      rewriteRequestPath: (path, context) => path.slice(context.req.routePath.replace(/\/?\*$/, '').length) || '/',
    });
    const response = await files(c, next);
    // Hono's table of types has no Markdown; the guides and operations as Markdown are read as text/markdown.
    if (response && c.req.path.endsWith('.md') && response.status === 200) response.headers.set('Content-Type', 'text/markdown; charset=utf-8');
    return response;
  });
  return app;
}
