// What a handler answers: a Response that says which operation it answers. Only the functions
// below make one, and each checks the status and the body against that operation of the
// generated `operations` (through respond.ts), so the handler map (handlers/index.ts) holds each
// operation to its own contract.
import type { ResponseObjectMap } from 'openapi-typescript-helpers';
import type { operations, sandboxOperations } from '../contract/types.ts';
import type { AppContext, Runtime } from './env.ts';
import {
  type ApiBody,
  type ApiItem,
  type ApiOperation,
  type ApiStatus,
  apiJson,
  apiJsonItems,
  apiJsonList,
  apiJsonPages,
  type ItemJson,
  noContent,
  type SandboxBody,
  type SandboxOperation,
  type SandboxStatus,
  sandboxJson,
} from './respond.ts';

declare const answers: unique symbol;

/** A response of operation `O`. */
export type Answer<O extends ApiOperation | SandboxOperation> = Response & { readonly [answers]: O };

/** Operations whose contract has an empty answer. */
type NoContentOperation = { [O in ApiOperation]: 204 extends keyof ResponseObjectMap<operations[O]> ? O : never }[ApiOperation];

/** Sandbox operations whose 200 is a stream of JSON lines. */
type NdjsonOperation = {
  [O in SandboxOperation]: ResponseObjectMap<sandboxOperations[O]> extends { 200: { content: { 'application/x-ndjson': unknown } } } ? O : never;
}[SandboxOperation];

const as = <O extends ApiOperation | SandboxOperation>(response: Response) => response as Answer<O>;

export const answer = {
  /** A JSON body of the API, rewritten into the request's version. */
  json: async <O extends ApiOperation, S extends ApiStatus<O>>(c: AppContext, runtime: Runtime, operation: O, status: S, body: ApiBody<O, S>) =>
    as<O>(await apiJson(c, runtime, operation, status, body)),
  /** A JSON array joined from its items' JSON (`itemJson`). */
  items: <O extends ApiOperation>(c: AppContext, operation: O, items: readonly ItemJson<O>[]) => as<O>(apiJsonItems(c, operation, items)),
  /** A JSON array streamed as it is read, a page of rows at a time, each row presented as an item. */
  pages: <O extends ApiOperation, Row>(
    c: AppContext,
    runtime: Runtime,
    operation: O,
    pages: AsyncIterable<readonly Row[]>,
    present: (row: Row) => ApiItem<O>,
  ) => as<O>(apiJsonPages(c, runtime, operation, pages, present)),
  /** A JSON array rendered whole up to `wholeMax` items, streamed beyond. */
  list: async <O extends ApiOperation>(c: AppContext, runtime: Runtime, operation: O, items: AsyncIterable<ApiItem<O>>, wholeMax: number) =>
    as<O>(await apiJsonList(c, runtime, operation, items, wholeMax)),
  noContent: <O extends NoContentOperation>(c: AppContext, _operation: O) => as<O>(noContent(c)),
  /** A JSON body of the sandbox control API (one version). */
  sandbox: <O extends SandboxOperation, S extends SandboxStatus<O>>(c: AppContext, operation: O, status: S, body: SandboxBody<O, S>) =>
    as<O>(sandboxJson(c, operation, status, body)),
  ndjson: <O extends NdjsonOperation>(c: AppContext, _operation: O, stream: ReadableStream<Uint8Array>) =>
    as<O>(c.body(stream, 200, { 'Content-Type': 'application/x-ndjson', 'Cache-Control': 'no-store' })),
};
