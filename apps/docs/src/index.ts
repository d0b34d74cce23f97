// Public entry points: where the built docs are, and a Hono sub-app that serves them.
export { docsDir, screenshotsDir } from './paths.ts';
export { type Collection, type Environment, variables as postmanVariables } from './postman.ts';
export { type DocsAppOptions, docsApp } from './serve.ts';
