import { fileURLToPath } from 'node:url';

/** The built browser assets: connect.js and the frame (index.html, frame.js, frame.css), what the sandbox serves at /connect/. */
export const widgetDir = fileURLToPath(new URL('../dist/widget', import.meta.url));

/** The files of `widgetDir`, with the type each is served as. */
export const widgetFiles = {
  'connect.js': 'text/javascript; charset=utf-8',
  'index.html': 'text/html; charset=utf-8',
  'frame.js': 'text/javascript; charset=utf-8',
  'frame.css': 'text/css; charset=utf-8',
} as const;

export type WidgetFile = keyof typeof widgetFiles;
