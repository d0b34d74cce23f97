// The documents that get a page, and the operations and webhook events each one has. Everything here is read
// from the bundles, so a new operation or version shows up in the docs (and in their tests) by itself.
import { currentVersion, type DocumentName, documentNames, type JsonObject, type OpenApiDocument, versions } from '@aggregation/openapi/contract';

export { currentVersion, type DocumentName, documentNames, type OpenApiDocument, versions };

export const httpMethods = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

export type Operation = {
  method: string;
  path: string;
  operationId: string;
  summary: string;
  tag: string;
  object: JsonObject;
};

export type WebhookEvent = { name: string; method: string; summary: string; operationId: string | undefined };

export function isVersion(name: DocumentName): boolean {
  return (versions as readonly string[]).includes(name);
}

/** Every operation of the document's paths, in document order. */
export function operationsOf(document: OpenApiDocument): Operation[] {
  const operations: Operation[] = [];
  for (const [path, item] of Object.entries(document.paths ?? {})) {
    for (const method of httpMethods) {
      const object = item[method] as JsonObject | undefined;
      if (!object) continue;
      const operationId = object.operationId;
      if (typeof operationId !== 'string') throw new Error(`${method.toUpperCase()} ${path} has no operationId`);
      operations.push({
        method,
        path,
        operationId,
        summary: typeof object.summary === 'string' ? object.summary : operationId,
        tag: Array.isArray(object.tags) && typeof object.tags[0] === 'string' ? object.tags[0] : 'default',
        object,
      });
    }
  }
  return operations;
}

/** Every webhook event (the keys of `webhooks`) with the summary of its operation. */
export function webhooksOf(document: OpenApiDocument): WebhookEvent[] {
  return Object.entries(document.webhooks ?? {}).flatMap(([name, item]) =>
    httpMethods
      .filter((method) => item[method])
      .map((method) => {
        const object = item[method] as JsonObject;
        return {
          name,
          method,
          summary: typeof object.summary === 'string' ? object.summary : name,
          operationId: typeof object.operationId === 'string' ? object.operationId : undefined,
        };
      }),
  );
}

/** The page title of a document. */
export function pageTitle(name: DocumentName, document: OpenApiDocument): string {
  const title = typeof document.info.title === 'string' ? document.info.title : 'API';
  if (!isVersion(name)) return title;
  return `${title} ${name}${name === currentVersion ? ' (current)' : ''}`;
}
