// Public entry points: where the built docs are, and a Hono sub-app that serves them.
export { docsDir, screenshotsDir } from './paths.ts';
export { docsApp, type DocsAppOptions } from './serve.ts';
