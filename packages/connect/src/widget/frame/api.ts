// The frame's calls to the sandbox it is served by (same origin): the institutions and the connect session's
// operations of the sandbox document (tag "Enrollment widget"). Every failure becomes a WidgetError with the
// contract's code, or `network.unreachable` when the server does not answer.
import type { ConnectError } from '../../types.ts';

export class WidgetError extends Error {
  readonly code: string;
  readonly status: number | undefined;
  readonly requestId: string | undefined;
  constructor(code: string, message: string, status?: number, requestId?: string) {
    super(message);
    this.code = code;
    this.status = status;
    this.requestId = requestId;
  }
  toJSON(): ConnectError {
    return { code: this.code, message: this.message, ...(this.requestId ? { requestId: this.requestId } : {}) };
  }
}

async function request<T>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> {
  let response: Response;
  try {
    response = await fetch(path, {
      method,
      headers: body === undefined ? { accept: 'application/json' } : { accept: 'application/json', 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
      credentials: 'omit',
      cache: 'no-store',
    });
  } catch {
    throw new WidgetError('network.unreachable', 'The sandbox does not answer. Check your connection and try again.');
  }
  const requestId = response.headers.get('request-id') ?? undefined;
  let answer: unknown;
  try {
    answer = await response.json();
  } catch {
    answer = undefined;
  }
  if (response.ok) return answer as T;
  const error = (answer as { error?: { code?: unknown; message?: unknown } } | undefined)?.error;
  const code = typeof error?.code === 'string' ? error.code : `http.${response.status}`;
  const message = typeof error?.message === 'string' ? error.message : `The sandbox answered ${response.status}.`;
  throw new WidgetError(code, message, response.status, requestId);
}

export interface Institution {
  id: string;
  name: string;
  products: string[];
}

export interface SessionAccount {
  id: string;
  name: string;
  type: string;
  subtype: string;
  last_four: string;
}

export interface EnrollmentResult {
  access_token: string;
  user: { id: string };
  enrollment: { id: string; institution: { id: string; name: string } };
  signatures: string[];
}

export interface ApprovalResult {
  connect_token: string;
  status: 'approved';
}

/** A connect session as the sandbox answers it: its mode and the step the user is on, with that step's data. */
export interface Session {
  id: string;
  mode: 'enroll' | 'reconnect' | 'approve';
  application: { id: string; name: string };
  step: 'institution' | 'credentials' | 'mfa' | 'select_accounts' | 'approve' | 'done';
  institution?: { id: string; name: string };
  mfa?: { prompt: string };
  accounts?: SessionAccount[];
  challenge?: Record<string, unknown>;
  result?: EnrollmentResult | ApprovalResult;
}

export interface SessionRequest {
  application_id: string;
  products?: string[];
  select_account?: string;
  nonce?: string;
  enrollment_id?: string;
  connect_token?: string;
}

const sessionPath = (id: string, action: string) => `../sandbox/connect/sessions/${encodeURIComponent(id)}/${action}`;

export const api = {
  institutions: () => request<Institution[]>('GET', '../institutions'),
  createSession: (body: SessionRequest) => request<Session>('POST', '../sandbox/connect/sessions', body),
  credentials: (id: string, body: { institution_id: string; username: string; password: string }) =>
    request<Session>('POST', sessionPath(id, 'credentials'), body),
  mfa: (id: string, code: string) => request<Session>('POST', sessionPath(id, 'mfa'), { code }),
  accounts: (id: string, accountIds: string[]) => request<Session>('POST', sessionPath(id, 'accounts'), { account_ids: accountIds }),
  approve: (id: string) => request<Session>('POST', sessionPath(id, 'approve'), {}),
};
