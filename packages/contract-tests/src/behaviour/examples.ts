// The requests the behaviour checks send are the description's own examples (components/examples), so that a check
// asks what the description shows an integrator asking.
import { type DocumentName, loadBundle } from '@aggregation/openapi/contract';

type Json = Record<string, unknown>;

/** The value of a named example of a document; throws when the description no longer has it. */
export function exampleOf<T extends Json = Json>(document: DocumentName, name: string): T {
  const example = loadBundle(document).components?.examples?.[name] as { value?: T } | undefined;
  if (!example?.value || typeof example.value !== 'object') throw new Error(`${document} has no example ${name} to send`);
  return structuredClone(example.value);
}

export type PayeeInput = { scheme: string; address: string; name?: string; type?: string };
export type PaymentInput = { amount: string; memo: string; payee: PayeeInput };
