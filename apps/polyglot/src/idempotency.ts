// The POSTs that take an `Idempotency-Key`, read from the description the Python package and the Go module are
// generated from: their retry layers give these a key when the caller did not, and retry them with it.
import { readFileSync } from 'node:fs';
import { type OpenApiDocument, operationsOf } from '@aggregation/openapi/contract';
import { bundlePath } from './paths.ts';

/** The path templates of the POST operations that declare an `Idempotency-Key` header parameter. */
export function idempotentPosts(document: OpenApiDocument = JSON.parse(readFileSync(bundlePath, 'utf8')) as OpenApiDocument): string[] {
  return operationsOf(document)
    .filter((operation) => operation.method === 'post')
    .filter((operation) => operation.parameters.some((parameter) => parameter.in === 'header' && parameter.name.toLowerCase() === 'idempotency-key'))
    .map((operation) => operation.path);
}
