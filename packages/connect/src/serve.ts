// Serves the built widget under a prefix of any Hono app: `app.route('/connect', connectApp())`. Each file gets the
// headers its use calls for. connect.js is loaded by pages of any origin. The frame (index.html) may be framed only by
// the origin its URL names (`?origin=`), the one page the frame will talk to; it loads only its own script and style
// and talks only to its own origin.
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { Hono } from 'hono';
import { type WidgetFile, widgetDir, widgetFiles } from './assets.ts';
import { isWebOrigin } from './protocol.ts';

export type ConnectAppOptions = {
  /** Folder of the built widget (default: this package's dist/widget/). */
  root?: string;
};

/** The frame's Content-Security-Policy: nothing but its own files and API, framed only by `origin` (none without one). */
export function frameContentSecurityPolicy(origin: string | undefined): string {
  return [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    "connect-src 'self'",
    "img-src 'self' data:",
    "base-uri 'none'",
    "form-action 'none'",
    `frame-ancestors ${isWebOrigin(origin) ? origin : "'none'"}`,
  ].join('; ');
}

const COMMON_HEADERS = {
  'X-Content-Type-Options': 'nosniff',
  // Changed by every build; the ETag makes a second load cheap.
  'Cache-Control': 'no-cache',
};

function headersFor(file: WidgetFile, origin: string | undefined): Record<string, string> {
  const type = { 'Content-Type': widgetFiles[file], ...COMMON_HEADERS };
  if (file === 'connect.js') {
    // Embedded by the integrator's pages, and asked for by its loader (fetch, `crossorigin` scripts).
    return { ...type, 'Access-Control-Allow-Origin': '*', 'Cross-Origin-Resource-Policy': 'cross-origin' };
  }
  if (file === 'index.html') {
    return { ...type, 'Content-Security-Policy': frameContentSecurityPolicy(origin), 'Referrer-Policy': 'no-referrer' };
  }
  return { ...type, 'Cross-Origin-Resource-Policy': 'same-origin' };
}

type Loaded = { body: ArrayBuffer; etag: string; mtimeMs: number };

export function connectApp(options: ConnectAppOptions = {}): Hono {
  const root = options.root ?? widgetDir;
  const app = new Hono();
  const cache = new Map<WidgetFile, Loaded>();

  /** The file as built; read again when a new build replaced it. */
  async function load(file: WidgetFile): Promise<Loaded | undefined> {
    const path = join(root, file);
    const info = await stat(path).catch(() => undefined);
    if (!info) return undefined;
    const kept = cache.get(file);
    if (kept && kept.mtimeMs === info.mtimeMs) return kept;
    const bytes = await readFile(path);
    const body = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
    const loaded = { body, etag: `"${info.size.toString(16)}-${Math.trunc(info.mtimeMs).toString(16)}"`, mtimeMs: info.mtimeMs };
    cache.set(file, loaded);
    return loaded;
  }

  // The frame links its script and style relatively, so it must be read from ".../connect/", not ".../connect".
  app.get('/', async (c, next) => {
    if (!c.req.path.endsWith('/')) return c.redirect(`${c.req.path}/${new URL(c.req.url).search}`, 301);
    return next();
  });
  app.get('*', async (c, next) => {
    // Mounted under a prefix: the part of the path after it, "/" for the frame.
    const relative = c.req.path.slice(c.req.routePath.replace(/\/?\*$/, '').length);
    const name = relative === '/' ? 'index.html' : relative.slice(1);
    if (!Object.hasOwn(widgetFiles, name)) return next();
    const file = name as WidgetFile;
    const loaded = await load(file);
    if (!loaded) return c.text('The widget is not built yet: npm run build -w @aggregation/connect', 503);
    const headers = { ...headersFor(file, c.req.query('origin')), ETag: loaded.etag };
    if (c.req.header('if-none-match') === loaded.etag) return c.body(null, 304, headers);
    return c.body(loaded.body, 200, headers);
  });
  return app;
}
