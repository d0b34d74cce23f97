// Named methods return the resource itself (like Stripe's SDK); the HTTP details of the response that produced it
// are kept aside, under a private symbol the data's keys, JSON and equality checks never show.
import { type EnrollmentStatus, readEnrollmentStatus } from './enrollment-status.ts';
import { REQUEST_ID_HEADER } from './errors.ts';

export type ResponseInfo = {
  status: number;
  headers: Headers;
  /** `Service-Enrollment-Status`, on the endpoints that send it. */
  enrollmentStatus: EnrollmentStatus | undefined;
  /** `Service-Version` the response was rendered in. */
  version: string | undefined;
  /** The server's `Request-Id` of the request: quote it when asking about a call. */
  requestId: string | undefined;
};

// A non-enumerable property rather than a WeakMap: a WeakMap entry per result made the collector's work on
// short-lived results cost more than the rest of a call. The info is made from the response when first asked for.
const responseKey = Symbol('response');
type Kept = { response: Response; info?: ResponseInfo };

export function describeResponse(response: Response): ResponseInfo {
  return {
    status: response.status,
    headers: response.headers,
    enrollmentStatus: readEnrollmentStatus(response),
    version: response.headers.get('Service-Version') ?? undefined,
    requestId: response.headers.get(REQUEST_ID_HEADER) ?? undefined,
  };
}

/** Remembers the response a result came from. Returns the result. */
export function attachResponse<T>(result: T, response: Response): T {
  if (typeof result === 'object' && result !== null) {
    keptDescriptor.value = { response } satisfies Kept;
    Object.defineProperty(result, responseKey, keptDescriptor);
    keptDescriptor.value = undefined;
  }
  return result;
}
// Reused across calls: `defineProperty` copies it.
const keptDescriptor: PropertyDescriptor = { value: undefined, configurable: true };

/**
 * The response behind a result of a named method (status, headers, enrollment status, version):
 * `getResponseInfo(await client.accounts.get(id))?.enrollmentStatus`.
 */
export function getResponseInfo(result: unknown): ResponseInfo | undefined {
  if (typeof result !== 'object' || result === null) return undefined;
  const kept = (result as { [responseKey]?: Kept })[responseKey];
  if (!kept) return undefined;
  kept.info ??= describeResponse(kept.response);
  return kept.info;
}
