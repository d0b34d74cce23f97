// Builds the browser assets the sandbox serves at /connect/ into dist/widget/: connect.js (the script pages embed, one
// self-contained classic script) and the frame (index.html, frame.js, frame.css). esbuild bundles and minifies them
// for the browsers the widget supports; the library's own modules are compiled by tsc after this.
import { copyFile, mkdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { type BuildOptions, build } from 'esbuild';
import { widgetDir } from '../src/assets.ts';

const packageDir = join(import.meta.dirname, '..');
const source = join(packageDir, 'src', 'widget');
const { version } = JSON.parse(await readFile(join(packageDir, 'package.json'), 'utf8')) as { version: string };

await rm(widgetDir, { recursive: true, force: true });
await mkdir(widgetDir, { recursive: true });

const common: BuildOptions = {
  bundle: true,
  minify: true,
  format: 'iife',
  target: ['chrome111', 'firefox113', 'safari16.4'],
  legalComments: 'none',
  logLevel: 'warning',
  define: { __CONNECT_VERSION__: JSON.stringify(version) },
};

await Promise.all([
  build({ ...common, entryPoints: [join(source, 'connect.ts')], outfile: join(widgetDir, 'connect.js') }),
  build({ ...common, entryPoints: [join(source, 'frame', 'main.ts')], outfile: join(widgetDir, 'frame.js') }),
  build({ ...common, entryPoints: [join(source, 'frame', 'frame.css')], outfile: join(widgetDir, 'frame.css'), loader: { '.css': 'css' } }),
  copyFile(join(source, 'frame', 'index.html'), join(widgetDir, 'index.html')),
]);
