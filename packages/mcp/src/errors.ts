// Failures as an agent reads them: what happened (status and code, or why no answer came), and what to do about it,
// in the words of the description's declared error codes (`x-error-codes`, the source of the Errors guide).
import { AggregationError, ApiError, ConnectionError } from '@aggregation/client';
import { declaredErrorCode, type ErrorCode } from '@aggregation/openapi/error-codes';

/** A tool's failure, as the text of an `isError` result. */
export type ToolFailure = { text: string /** For the log: status and code, or the kind of failure. */; summary: string };

/** An error answer of the API: `404 not_found: <message>`, the declared advice, the fields at fault, the request id. */
export function apiFailure(error: ApiError, codes: readonly ErrorCode[]): ToolFailure {
  const lines = [`${error.status} ${error.code}: ${error.message}`];
  if (error.params) {
    const fields = Object.entries(error.params).map(([field, messages]) => `${field}: ${messages.join('; ')}`);
    if (fields.length > 0) lines.push(`Invalid: ${fields.join(' | ')}`);
  }
  const declared = declaredErrorCode(codes, error.code);
  if (declared) lines.push(`What to do: ${declared.action}`);
  if (error.retryAfter !== undefined) lines.push(`Retry-After: ${error.retryAfter} s.`);
  if (error.requestId) lines.push(`Request id: ${error.requestId} (quote it when asking about this call).`);
  return { text: lines.join('\n'), summary: `${error.status} ${error.code}${error.requestId ? ` (request id ${error.requestId})` : ''}` };
}

/** A call that got no answer, a refused configuration, or anything else thrown while calling. */
export function thrownFailure(error: unknown, baseUrl: string): ToolFailure {
  if (error instanceof ApiError) throw new TypeError('an ApiError is an answer: use apiFailure');
  if (error instanceof ConnectionError) {
    return {
      text: `No answer from the API at ${baseUrl}: ${error.message}\nWhat to do: check that the API answers at that address (--base-url or AGGREGATION_BASE_URL), then call the tool again.`,
      summary: `no answer (${error.reason})`,
    };
  }
  if (error instanceof AggregationError) return { text: error.message, summary: error.name };
  if (error instanceof SyntaxError) {
    return {
      text: `The API at ${baseUrl} answered with something that is not JSON (${error.message}). What to do: check that --base-url names this API.`,
      summary: 'not JSON',
    };
  }
  return { text: `The call failed: ${error instanceof Error ? error.message : String(error)}`, summary: 'failed' };
}
