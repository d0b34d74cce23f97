// The rules the behaviour checks hold a server to, read from the description itself: each check names the sentence it
// relies on, and finds it at run time, so that a description that no longer states a rule stops the check instead of
// it judging by words that are gone.
import { type DocumentName, loadBundle } from '@aggregation/openapi/contract';

export class MissingRule extends Error {}

/** The text at a JSON pointer of a bundle (a description, usually). */
function textAt(document: DocumentName, pointer: string): string {
  let node: unknown = loadBundle(document);
  for (const raw of pointer.replace(/^#\//, '').split('/')) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    node = (node as Record<string, unknown> | undefined)?.[key];
  }
  return typeof node === 'string' ? node : '';
}

const squeeze = (text: string) => text.replace(/\s+/g, ' ').trim();

/** `<document> <pointer>: “<words>”`, after checking that the description says those words there. */
export function rule(document: DocumentName, pointer: string, words: string): string {
  if (!squeeze(textAt(document, pointer)).includes(squeeze(words))) {
    throw new MissingRule(`the description ${document} no longer says “${words}” at ${pointer}; this check needs its rule again`);
  }
  return `${document} ${pointer}: “${squeeze(words)}”`;
}
