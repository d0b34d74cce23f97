// Typed responses. Bodies are checked by the compiler against the generated `operations`
// (current version; the sandbox document for the control API), then rewritten into the
// requested version's shapes on the way out.
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { JSONLike, RequestBodyJSON, ResponseContent, ResponseObjectMap } from 'openapi-typescript-helpers';
import type { operations, sandboxOperations } from '../contract/types.ts';
import type { EnrollmentRow } from '../storage/store.ts';
import { type ChangeContext, type Resource, rewriteResource, rewrites } from '../versions/index.ts';
import type { AppContext, Runtime } from './env.ts';
import { ownBytes } from './own-bytes.ts';
import { presentDetails } from './present.ts';

type Responses<Ops, O extends keyof Ops> = ResponseObjectMap<Ops[O]>;
type SuccessStatus<R> = Extract<keyof R, 200 | 201 | 202>;
type JsonBody<R> = JSONLike<ResponseContent<R>>;

export type ApiOperation = keyof operations;
export type SandboxOperation = keyof sandboxOperations;
export type ApiStatus<O extends ApiOperation> = SuccessStatus<Responses<operations, O>>;
export type ApiBody<O extends ApiOperation, S extends ApiStatus<O>> = JsonBody<Responses<operations, O>[S]>;
export type SandboxStatus<O extends SandboxOperation> = SuccessStatus<Responses<sandboxOperations, O>>;
export type SandboxBody<O extends SandboxOperation, S extends SandboxStatus<O>> = JsonBody<Responses<sandboxOperations, O>[S]>;
/** Element type of an operation whose 200 body is an array. */
export type ApiItem<O extends ApiOperation> = ApiBody<O, ApiStatus<O>> extends (infer T)[] ? T : never;

export type ApiRequest<O extends ApiOperation> = RequestBodyJSON<operations[O]>;
export type SandboxRequest<O extends SandboxOperation> = RequestBodyJSON<sandboxOperations[O]>;

/** The validated request body, typed from the operation (current version's shape). */
export const apiBody = <O extends ApiOperation>(c: AppContext, _operation: O): ApiRequest<O> => c.get('body') as ApiRequest<O>;
export const sandboxBody = <O extends SandboxOperation>(c: AppContext, _operation: O): SandboxRequest<O> => c.get('body') as SandboxRequest<O>;

/** The resource each operation returns, for the version change modules. */
const RESOURCES: Partial<Record<ApiOperation, Resource>> = {
  listAccounts: 'Account',
  getAccount: 'Account',
  getAccountDetails: 'AccountDetails',
  getAccountBalances: 'AccountBalances',
  listTransactions: 'Transaction',
  getTransaction: 'Transaction',
  createPayee: 'Payee',
  listPaymentSchemes: 'PaymentSchemes',
  createPayment: 'Payment',
  listPayments: 'Payment',
  getPayment: 'Payment',
};

/**
 * What a response's JSON depends on beside its data: the request's version, the base of links and the token's
 * enrollment (read only by the version changes that need more rows). The Hono context holds them; the page served
 * before the app (fast-page.ts) has them without one.
 */
export interface RenderView {
  version: string;
  base: string;
  enrollment: () => EnrollmentRow;
}

export const viewOf = (c: AppContext): RenderView => ({ version: c.get('version'), base: c.get('base'), enrollment: () => c.get('enrollment') });

export function changeContext(view: RenderView, runtime: Runtime): ChangeContext {
  return {
    async details(accountId) {
      const account = await runtime.deps.store.accounts.get(view.enrollment().id, accountId);
      if (!account || account.verification === 'pending' || account.verification === 'expired') return null;
      return presentDetails(view.base, account);
    },
  };
}

async function versioned(view: RenderView, runtime: Runtime, operation: ApiOperation, body: unknown): Promise<unknown> {
  const resource = RESOURCES[operation];
  const { version } = view;
  if (!resource || !rewrites(version, resource)) return body;
  // An MFA challenge has the same shape in every version.
  if (body && typeof body === 'object' && 'connect_token' in body) return body;
  const context = changeContext(view, runtime);
  if (Array.isArray(body)) return Promise.all(body.map((item) => rewriteResource(version, resource, item, context)));
  return rewriteResource(version, resource, body, context);
}

export async function apiJson<O extends ApiOperation, S extends ApiStatus<O>>(
  c: AppContext,
  runtime: Runtime,
  operation: O,
  status: S,
  body: ApiBody<O, S>,
): Promise<Response> {
  const text = JSON.stringify(await versioned(viewOf(c), runtime, operation, body));
  c.get('keepBody')?.(text);
  return c.body(text, status as ContentfulStatusCode, JSON_HEADERS);
}

export const JSON_CONTENT_TYPE = 'application/json';
const JSON_HEADERS = { 'Content-Type': JSON_CONTENT_TYPE };

declare const renderedItem: unique symbol;
/** One item of an operation's array body as UTF-8 JSON in the request's version: only `apiItemJson` makes one. */
export type ItemJson<O extends ApiOperation> = Buffer & { readonly [renderedItem]: O };

export async function apiItemJson<O extends ApiOperation>(view: RenderView, runtime: Runtime, operation: O, item: ApiItem<O>): Promise<ItemJson<O>> {
  // Kept by the rendered rows, one allocation each.
  return ownBytes(JSON.stringify(await versioned(view, runtime, operation, item))) as ItemJson<O>;
}

const OPEN = 0x5b; // [
const COMMA = 0x2c; // ,
const CLOSE = 0x5d; // ]

/**
 * A JSON array joined from items rendered one by one (as `apiJson` renders the whole array), as bytes: copied
 * once into a buffer of the joined length, and written and kept without being encoded again.
 */
export function apiJsonItems<O extends ApiOperation>(c: AppContext, operation: O, items: readonly ItemJson<O>[]): Response {
  const bytes = joinedItems(operation, items);
  c.get('keepBody')?.(bytes);
  return c.body(bytes, 200, JSON_HEADERS);
}

/** The JSON array of `items`, as `apiJsonItems` answers it, in bytes from `allocate` (of the length it is given). */
export function joinedItems<O extends ApiOperation>(
  _operation: O,
  items: readonly ItemJson<O>[],
  allocate: (length: number) => Buffer<ArrayBuffer> = Buffer.allocUnsafeSlow,
): Buffer<ArrayBuffer> {
  let length = items.length === 0 ? 2 : items.length + 1;
  for (const item of items) length += item.byteLength;
  const bytes = allocate(length);
  bytes[0] = OPEN;
  let at = 1;
  for (let index = 0; index < items.length; index += 1) {
    const item = items[index]!;
    if (index > 0) bytes[at++] = COMMA;
    bytes.set(item, at);
    at += item.byteLength;
  }
  bytes[at] = CLOSE;
  return bytes;
}

export function sandboxJson<O extends SandboxOperation, S extends SandboxStatus<O>>(
  c: AppContext,
  _operation: O,
  status: S,
  body: SandboxBody<O, S>,
): Response {
  return c.json(body as object, status as ContentfulStatusCode);
}

export const noContent = (c: AppContext): Response => c.body(null, 204);

/** Items a streamed list of single items (`apiJsonStream`) renders at a time. */
const STREAM_BATCH = 200;
/** Bytes a chunk of a streamed list starts with; a page that needs more gets a larger one. */
const STREAM_CHUNK_BYTES = 64 * 1024;

/**
 * Streams a JSON array, a page of rows at a time as the client consumes it, so a million-row list never sits in
 * memory. Each page is presented and written in one go, each item's JSON straight into the chunk's bytes: no string
 * of the whole chunk is built and encoded again, and no promise is made per item (except where an older version's
 * rewrite reads more rows). So little of what a page allocates outlives it, and over a long list the collector,
 * which grows the young generation with what survives its scavenges, keeps it small.
 */
export function apiJsonPages<O extends ApiOperation, Row>(
  c: AppContext,
  runtime: Runtime,
  operation: O,
  pages: AsyncIterable<readonly Row[]>,
  present: (row: Row) => ApiItem<O>,
): Response {
  const iterator = pages[Symbol.asyncIterator]();
  const resource = RESOURCES[operation];
  const version = c.get('version');
  const rewrite = resource && rewrites(version, resource) ? resource : undefined;
  const context = changeContext(viewOf(c), runtime);
  let opened = false;
  let first = true;
  let done = false;
  const stream = new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (done) return;
      try {
        const next = await iterator.next();
        const chunk = new ChunkWriter();
        if (!opened) {
          chunk.byte(OPEN);
          opened = true;
        }
        if (next.done) {
          done = true;
          chunk.byte(CLOSE);
        } else {
          for (const row of next.value) {
            const item = present(row);
            const value = rewrite ? await rewriteResource(version, rewrite, item, context) : item;
            if (!first) chunk.byte(COMMA);
            chunk.text(JSON.stringify(value));
            first = false;
          }
        }
        controller.enqueue(chunk.bytes());
        if (done) controller.close();
      } catch (error) {
        done = true;
        controller.error(error);
      }
    },
    async cancel() {
      done = true;
      await iterator.return?.();
    },
  });
  return c.body(stream, 200, { 'Content-Type': 'application/json' });
}

/** Bytes written as they come, in a buffer off the JavaScript heap that doubles when it must. */
class ChunkWriter {
  private buffer = Buffer.allocUnsafeSlow(STREAM_CHUNK_BYTES);
  private at = 0;

  byte(value: number): void {
    this.room(1);
    this.buffer[this.at++] = value;
  }

  text(value: string): void {
    // At most three bytes per UTF-16 unit: room for that, then the exact length written.
    this.room(value.length * 3);
    this.at += this.buffer.write(value, this.at, 'utf8');
  }

  bytes(): Uint8Array {
    return this.buffer.subarray(0, this.at);
  }

  private room(bytes: number): void {
    if (this.at + bytes <= this.buffer.length) return;
    const larger = Buffer.allocUnsafeSlow(Math.max(this.buffer.length * 2, this.at + bytes));
    this.buffer.copy(larger, 0, 0, this.at);
    this.buffer = larger;
  }
}

/** Streams a JSON array of single items, a batch of them at a time (`apiJsonPages`). */
export function apiJsonStream<O extends ApiOperation>(c: AppContext, runtime: Runtime, operation: O, items: AsyncIterable<ApiItem<O>>): Response {
  const batches: AsyncIterable<ApiItem<O>[]> = {
    async *[Symbol.asyncIterator]() {
      let batch: ApiItem<O>[] = [];
      for await (const item of items) {
        batch.push(item);
        if (batch.length === STREAM_BATCH) {
          yield batch;
          batch = [];
        }
      }
      if (batch.length > 0) yield batch;
    },
  };
  return apiJsonPages(c, runtime, operation, batches, (item) => item);
}

/**
 * A JSON array of `items`: rendered whole (and so kept by the read cache) when it holds at most
 * `wholeMax` items, streamed as `apiJsonStream` does when it is longer.
 */
export async function apiJsonList<O extends ApiOperation>(
  c: AppContext,
  runtime: Runtime,
  operation: O,
  items: AsyncIterable<ApiItem<O>>,
  wholeMax: number,
): Promise<Response> {
  const iterator = items[Symbol.asyncIterator]();
  const head: ApiItem<O>[] = [];
  while (head.length <= wholeMax) {
    const next = await iterator.next();
    if (next.done) return apiJson(c, runtime, operation, 200 as ApiStatus<O>, head as ApiBody<O, ApiStatus<O>>);
    head.push(next.value);
  }
  return apiJsonStream(c, runtime, operation, {
    async *[Symbol.asyncIterator]() {
      try {
        yield* head.splice(0);
        for (let next = await iterator.next(); !next.done; next = await iterator.next()) yield next.value;
      } finally {
        await iterator.return?.();
      }
    },
  });
}
