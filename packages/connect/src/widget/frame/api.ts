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
  /** Null after a reconnect: the enrollment keeps its token. */
  access_token: string | null;
  user: { id: string };
  enrollment: { id: string; institution: { id: string; name: string } };
  signatures: { key_id: string; algorithm: 'Ed25519'; signature: string }[];
}

export interface ApprovalResult {
  connect_token: string;
  status: 'approved';
}

/** The MFA challenge a session in `approve` mode shows: what the request it holds back would do. */
export interface Challenge {
  connect_token: string;
  operation: 'create_payee' | 'create_payment';
  account_id: string;
  request: {
    amount?: string;
    memo?: string;
    payee?: { name?: string; address?: string };
    name?: string;
    address?: string;
  };
  expires_at: string;
}

/** A connect session as the sandbox answers it (the sandbox document's ConnectSession): its mode and step. */
export interface Session {
  id: string;
  mode: 'enroll' | 'reconnect' | 'approve';
  application: { id: string; name: string };
  step: 'credentials' | 'mfa' | 'select_accounts' | 'approve' | 'done';
  select_account: 'disabled' | 'single' | 'multiple';
  institution: { id: string; name: string } | null;
  mfa: { prompt: string } | null;
  accounts: SessionAccount[] | null;
  challenge: Challenge | null;
  result: EnrollmentResult | ApprovalResult | null;
}

export interface SessionRequest {
  application_id: string;
  products?: string[];
  select_account?: string;
  nonce?: string;
  enrollment_id?: string;
  connect_token?: string;
}

/** The session's operations; each step names the application the session belongs to. */
export function sessionApi(applicationId: string) {
  const step = (id: string, action: string, body: Record<string, unknown> = {}) =>
    request<Session>('POST', `../sandbox/connect/sessions/${encodeURIComponent(id)}/${action}`, { application_id: applicationId, ...body });
  return {
    institutions: () => request<Institution[]>('GET', '../institutions'),
    create: (body: Omit<SessionRequest, 'application_id'>) =>
      request<Session>('POST', '../sandbox/connect/sessions', { application_id: applicationId, ...body }),
    credentials: (id: string, body: { institution_id?: string; username: string; password: string }) => step(id, 'credentials', body),
    mfa: (id: string, code: string) => step(id, 'mfa', { code }),
    accounts: (id: string, accountIds: string[]) => step(id, 'accounts', { account_ids: accountIds }),
    approve: (id: string) => step(id, 'approve'),
  };
}

export type SessionApi = ReturnType<typeof sessionApi>;
