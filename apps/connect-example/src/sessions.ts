// The example's user sessions, in memory: a random id in an HttpOnly cookie names each. A real app keeps the access
// token in its database, encrypted, and never sends it back to the browser.
import { randomBytes, randomUUID } from 'node:crypto';
import type { Context } from 'hono';
import { getCookie, setCookie } from 'hono/cookie';

export const SESSION_COOKIE = 'example_session';

export interface Enrollment {
  accessToken: string;
  userId: string;
  enrollmentId: string;
  institution: { id: string; name: string };
}

/** A payment that waits for the user's MFA approval: sent again as it was, with the same key, once approved. */
export interface PendingPayment {
  accountId: string;
  payment: { amount: string; memo: string; payee: { scheme: 'zelle'; address: string; name: string; type: 'person' | 'business' } };
  idempotencyKey: string;
  connectToken: string;
}

export interface Session {
  /** The widget's `nonce`: its signatures cover it, so a result made for another session is refused. */
  nonce: string;
  enrollment: Enrollment | undefined;
  pending: Map<string, PendingPayment>;
}

export class Sessions {
  private readonly sessions = new Map<string, Session>();

  /** The request's session, made (and its cookie set) when it has none. */
  of(c: Context): Session {
    const id = getCookie(c, SESSION_COOKIE);
    const found = id ? this.sessions.get(id) : undefined;
    if (found) return found;
    const created: Session = { nonce: randomBytes(16).toString('base64url'), enrollment: undefined, pending: new Map() };
    const newId = randomUUID();
    this.sessions.set(newId, created);
    setCookie(c, SESSION_COOKIE, newId, { httpOnly: true, sameSite: 'Lax', path: '/' });
    return created;
  }
}
