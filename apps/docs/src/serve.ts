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
  // The index links its pages relatively, so it must be read from ".../docs/", not ".../docs".
  app.get('/', async (c, next) => {
    if (!c.req.path.endsWith('/')) return c.redirect(`${c.req.path}/`, 301);
    return next();
  });
  // Made on first use: an app created before the docs are built still serves them once they are.
  let files: MiddlewareHandler | undefined;
  app.use('*', async (c, next) => {
    if (!existsSync(root)) return c.text('The docs are not built yet: npm run build -w @aggregation/docs', 503);
    files ??= serveStatic({
      root,
      // Mounted under a prefix: keep only the part of the path after it.
      rewriteRequestPath: (path, context) => path.slice(context.req.routePath.replace(/\/?\*$/, '').length) || '/',
    });
    return files(c, next);
  });
  return app;
}
