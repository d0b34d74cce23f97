import { fileURLToPath } from 'node:url';

/** The built docs: one HTML page per document, index.html, the decorated bundles and the shown samples. */
export const docsDir = fileURLToPath(new URL('../dist', import.meta.url));

/** Where the browser tests leave their screenshots (kept by CI as artifacts). */
export const screenshotsDir = fileURLToPath(new URL('../artifacts/screenshots', import.meta.url));

export const packageDir = fileURLToPath(new URL('..', import.meta.url));
