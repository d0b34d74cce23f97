// Which requests carry an `Idempotency-Key`: the POSTs whose operation declares that header in the description. The
// list is checked against every version's generated `paths` by tsc: `satisfies` refuses a path whose POST does not
// declare the header, and the type test (test/types/client.types.ts) one that declares it but is missing here.
import type { PathsWithMethod } from 'openapi-typescript-helpers';
import type { Paths, Version } from './versions.ts';

export const IDEMPOTENCY_KEY_HEADER = 'Idempotency-Key';

type PostOf<Item> = Item extends { post: infer Operation } ? Operation : never;
type HeadersOf<Operation> = Operation extends { parameters: { header?: infer Headers } } ? NonNullable<Headers> : never;
type KeyedIn<V extends Version> = {
  [P in PathsWithMethod<Paths<V>, 'post'>]: typeof IDEMPOTENCY_KEY_HEADER extends keyof HeadersOf<PostOf<Paths<V>[P]>> ? P : never;
}[PathsWithMethod<Paths<V>, 'post'>];

/** The path templates of the POSTs that declare an `Idempotency-Key`, in any version. */
export type IdempotencyKeyedPost = { [V in Version]: KeyedIn<V> }[Version];

export const idempotencyKeyedPosts = ['/accounts/{account_id}/payments'] as const satisfies readonly IdempotencyKeyedPost[];

// `/accounts/{account_id}/payments` → a pattern matching the end of a request's path, under any base URL's prefix.
const keyedPatterns = idempotencyKeyedPosts.map((template) => new RegExp(`${template.replace(/\{[^}]+\}/g, '[^/]+')}$`));

/** True for a POST to an operation that takes an `Idempotency-Key`. */
export function takesIdempotencyKey(method: string, url: string): boolean {
  if (method !== 'POST') return false;
  const { pathname } = new URL(url);
  return keyedPatterns.some((pattern) => pattern.test(pathname));
}

/** A fresh key per request; the service keeps it for 72 hours. */
export function newIdempotencyKey(): string {
  return crypto.randomUUID();
}

/** Gives a POST that takes an `Idempotency-Key` and has none a fresh one, before its first attempt: every retry resends it. */
export function ensureIdempotencyKey(request: Request): void {
  if (takesIdempotencyKey(request.method, request.url) && !request.headers.has(IDEMPOTENCY_KEY_HEADER)) {
    request.headers.set(IDEMPOTENCY_KEY_HEADER, newIdempotencyKey());
  }
}
