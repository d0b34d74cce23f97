// Where the bundles are and how they are read. Imports nothing generated at run time: the build's own scripts load it
// before dist/versions.js exists.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { DocumentName } from '@aggregation/openapi/versions';

export type { DocumentName };

export const distDir = join(dirname(fileURLToPath(import.meta.url)), '..', 'dist');

export type JsonObject = { [key: string]: unknown };
export type OpenApiDocument = JsonObject & {
  openapi: string;
  info: JsonObject & { version: string };
  paths?: Record<string, Record<string, JsonObject>>;
  webhooks?: Record<string, Record<string, JsonObject>>;
  components?: Record<string, Record<string, JsonObject>>;
};

const bundleCache = new Map<DocumentName, OpenApiDocument>();

/** Reads a bundle written by `npm run build` (openapi/dist/<name>.json). */
export function loadBundle(name: DocumentName): OpenApiDocument {
  let bundle = bundleCache.get(name);
  if (!bundle) {
    bundle = JSON.parse(readFileSync(join(distDir, `${name}.json`), 'utf8')) as OpenApiDocument;
    bundleCache.set(name, bundle);
  }
  return bundle;
}
