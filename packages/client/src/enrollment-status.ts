import { codeTokens } from './codes.ts';

export const ENROLLMENT_STATUS_HEADER = 'Service-Enrollment-Status';

/**
 * The `Service-Enrollment-Status` header read as a dot-separated value: the first token is the status
 * (`healthy`, `disconnected`), the rest, when present, the reason (`disconnected.password_changed`).
 */
export type EnrollmentStatus = {
  /** First token: `healthy` or `disconnected` today; other values are passed through unchanged. */
  status: 'healthy' | 'disconnected' | (string & {});
  /** Tokens after the first, joined with dots, or `undefined`. */
  reason: string | undefined;
  /** The header value as received. */
  raw: string;
};

/** Parses a header value; `undefined` when the header is absent or empty. */
export function parseEnrollmentStatus(value: string | null | undefined): EnrollmentStatus | undefined {
  const raw = value?.trim();
  if (!raw) return undefined;
  const [status = '', ...rest] = codeTokens(raw);
  return { status, reason: rest.length ? rest.join('.') : undefined, raw };
}

/** Reads the enrollment status of a response; `undefined` for responses that do not carry the header. */
export function readEnrollmentStatus(response: Pick<Response, 'headers'>): EnrollmentStatus | undefined {
  return parseEnrollmentStatus(response.headers.get(ENROLLMENT_STATUS_HEADER));
}
