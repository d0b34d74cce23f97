// Named methods return the resource itself (like Stripe's SDK); the HTTP details of the response that produced it
// are kept aside in a WeakMap instead of being mixed into the data.
import { type EnrollmentStatus, readEnrollmentStatus } from './enrollment-status.ts';

export type ResponseInfo = {
  status: number;
  headers: Headers;
  /** `Service-Enrollment-Status`, on the endpoints that send it. */
  enrollmentStatus: EnrollmentStatus | undefined;
  /** `Service-Version` the response was rendered in. */
  version: string | undefined;
};

const infos = new WeakMap<object, ResponseInfo>();

export function describeResponse(response: Response): ResponseInfo {
  return {
    status: response.status,
    headers: response.headers,
    enrollmentStatus: readEnrollmentStatus(response),
    version: response.headers.get('Service-Version') ?? undefined,
  };
}

/** Remembers the response a result came from. Returns the result. */
export function attachResponse<T>(result: T, response: Response): T {
  if (typeof result === 'object' && result !== null) infos.set(result, describeResponse(response));
  return result;
}

/**
 * The response behind a result of a named method (status, headers, enrollment status, version):
 * `getResponseInfo(await client.accounts.get(id))?.enrollmentStatus`.
 */
export function getResponseInfo(result: unknown): ResponseInfo | undefined {
  return typeof result === 'object' && result !== null ? infos.get(result) : undefined;
}
