// The documents that get a page, and the operations and webhook events each one has (walked by
// @aggregation/openapi's `operationsOf` and `webhooksOf`). Everything here is read from the bundles, so a new
// operation or version shows up in the docs (and in their tests) by itself.
import { currentVersion, type DocumentName, type OpenApiDocument, versions } from '@aggregation/openapi/contract';

export {
  currentVersion,
  type DocumentName,
  documentNames,
  type OpenApiDocument,
  type Operation,
  operationsOf,
  versions,
  type WebhookEvent,
  webhooksOf,
} from '@aggregation/openapi/contract';

export function isVersion(name: DocumentName): boolean {
  return (versions as readonly string[]).includes(name);
}

/** The page title of a document. */
export function pageTitle(name: DocumentName, document: OpenApiDocument): string {
  const title = typeof document.info.title === 'string' ? document.info.title : 'API';
  if (!isVersion(name)) return title;
  return `${title} ${name}${name === currentVersion ? ' (current)' : ''}`;
}
