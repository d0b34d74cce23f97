// The widget's public interface: every option of `AggregationConnect.setup`, what each callback receives, and the
// handler it returns. The browser script (connect.js), the loader and the React hook are typed by these.

/** How the user picks accounts after signing in: not at all (every account is shared), one, or several. */
export type SelectAccount = 'disabled' | 'single' | 'multiple';

/** Where the widget enrolls. The sandbox is the only environment this server runs. */
export type ConnectEnvironment = 'sandbox';

/**
 * What the application will use the enrollment for; the institution picker lists only institutions that offer all of
 * them. `verify` asks for account numbers (instantly or by microdeposits); `verify.instant` only instantly.
 */
export type ConnectProduct = 'balance' | 'transactions' | 'payments' | 'verify' | 'verify.instant';

/** A code the widget reports in `onFailure` and in `error` events; the API's codes plus the widget's own. */
export type ConnectErrorCode =
  /** `baseUrl` did not answer (nothing listens there, or the network is down). */
  | 'network.unreachable'
  /** `baseUrl` answered, but serves no widget at `/connect/`. */
  | 'widget.unavailable'
  /** The page embedding the widget is not served over http or https (a file, a sandboxed frame). */
  | 'origin.unsupported'
  | 'application.not_found'
  | 'connect_token.not_found'
  | 'connect_token.expired'
  | 'connect_token.completed'
  | 'enrollment.not_found'
  | 'enrollment.not_disconnected'
  | 'connect_session.not_found'
  | 'connect_session.expired'
  | 'credentials_invalid'
  | 'mfa.code_invalid'
  | 'unprocessable_entity'
  // Any other code the API documents: match on the first dot-separated tokens.
  | (string & {});

export interface ConnectError {
  code: ConnectErrorCode;
  message: string;
  /** The server's `Request-Id` of the request that failed, when one answered. */
  requestId?: string;
}

/** What `onFailure` receives: the widget could not finish, for the reason `error.code` names. */
export interface ConnectFailure {
  error: ConnectError;
}

export interface ConnectInstitution {
  id: string;
  name: string;
}

/**
 * One signature of an enrollment's result, by one of the application's signing keys, as the sandbox made it: pass
 * `signatures` to your backend unchanged, where `verifyEnrollmentSignature` of `@aggregation/client` reads them.
 */
export interface ConnectSignature {
  /** The signing key (its `id` in `GET /sandbox/application`'s `signing_key`). */
  key_id: string;
  algorithm: 'Ed25519';
  /** The 64-byte signature, base64url without padding. */
  signature: string;
}

/** What `onSuccess` receives after an enrollment: send it to your backend, which verifies `signatures`. */
export interface ConnectEnrollment {
  /** The access token of the enrollment; it works against the API at once. */
  accessToken: string;
  user: { id: string };
  enrollment: { id: string; institution: ConnectInstitution };
  /**
   * Signatures, by the application's signing key, of the `nonce` option, the access token, the user id and the
   * enrollment id: `verifyEnrollmentSignature` of `@aggregation/client` checks them on your backend.
   */
  signatures: ConnectSignature[];
}

/** What `onSuccess` receives after a reconnect: the enrollment keeps the access token it had, so there is none. */
export interface ConnectReconnection {
  accessToken: null;
  user: { id: string };
  enrollment: { id: string; institution: ConnectInstitution };
  /** As for an enrollment, with an empty access token in what they sign. */
  signatures: ConnectSignature[];
}

/** What `onSuccess` receives after the user approved an MFA challenge (`connectToken`). */
export interface ConnectApproval {
  connectToken: string;
  status: 'approved';
}

/** Where the user was when they closed the widget. */
export interface ConnectExit {
  step: ConnectStep;
}

/** The widget's steps, as `step` events and `onExit` name them. */
export type ConnectStep = 'loading' | 'institutions' | 'credentials' | 'mfa' | 'accounts' | 'approve' | 'done' | 'failure';

/** Every event `onEvent` receives, with its data. Every event's data also has the `step` it happened on. */
export interface ConnectEvents {
  /** The widget was shown. `mode` says what for. */
  open: { mode: 'enroll' | 'reconnect' | 'approve' };
  /** A step was shown. */
  step: Record<string, never>;
  /** The institution search changed: the query and how many institutions it matches. */
  'institution.search': { query: string; results: number };
  'institution.selected': { institution: ConnectInstitution };
  'credentials.submitted': { institution: ConnectInstitution };
  'mfa.submitted': Record<string, never>;
  'accounts.selected': { count: number };
  'approval.submitted': Record<string, never>;
  /** An error the user can correct was shown in the widget (a wrong password, a wrong code). */
  error: { error: ConnectError };
  /** `onSuccess` is being called. */
  success: Record<string, never>;
  /** `onExit` is being called. */
  exit: Record<string, never>;
  /** `onFailure` is being called. */
  failure: { error: ConnectError };
}

export type ConnectEventName = keyof ConnectEvents;

/** The data of an event: its own fields, the step it happened on and the connect session's id once there is one. */
export type ConnectEventData<Name extends ConnectEventName = ConnectEventName> = ConnectEvents[Name] & {
  step: ConnectStep;
  sessionId?: string;
};

/** `onEvent`'s arguments: the name, then that event's data (`if (name === 'error')` narrows `data`). */
export type ConnectEventArgs = { [Name in ConnectEventName]: [name: Name, data: ConnectEventData<Name>] }[ConnectEventName];

export type ConnectEventHandler = (...args: ConnectEventArgs) => void;

interface CommonOptions {
  /** The application's public id (`app_...`; `app_default` for a local sandbox). */
  applicationId: string;
  environment?: ConnectEnvironment;
  /** Where the sandbox answers. Default: the base the script was loaded from (its origin for `/connect/connect.js`). */
  baseUrl?: string;
  /** Called once the widget is loaded and `open()` shows it at once. */
  onInit?: () => void;
  /** Called when the user closes the widget before finishing; nothing was changed. */
  onExit?: (exit: ConnectExit) => void;
  /** Called when the widget cannot finish: a bad option, an expired token, a server that does not answer. */
  onFailure?: (failure: ConnectFailure) => void;
  onEvent?: ConnectEventHandler;
}

/** Enrolling a user: neither `enrollmentId` nor `connectToken`. */
export interface EnrollmentOptions extends CommonOptions {
  products?: ConnectProduct[];
  selectAccount?: SelectAccount;
  enrollmentId?: undefined;
  connectToken?: undefined;
  /** A value of your backend's, for this user's session: the signatures cover it, so a replayed result is refused. */
  nonce?: string;
  onSuccess: (enrollment: ConnectEnrollment) => void;
}

/** Reconnecting a disconnected enrollment: the user signs in to its institution again. */
export interface ReconnectOptions extends CommonOptions {
  enrollmentId: string;
  connectToken?: undefined;
  products?: undefined;
  selectAccount?: undefined;
  nonce?: string;
  onSuccess: (reconnection: ConnectReconnection) => void;
}

/** Approving an MFA challenge: the `connect_token` a payee or payment request answered with. */
export interface ApprovalOptions extends CommonOptions {
  connectToken: string;
  enrollmentId?: undefined;
  products?: undefined;
  selectAccount?: undefined;
  nonce?: undefined;
  onSuccess: (approval: ConnectApproval) => void;
}

export type ConnectOptions = EnrollmentOptions | ReconnectOptions | ApprovalOptions;

/** What `setup` returns. */
export interface ConnectHandler {
  /** Shows the widget (once loaded; before that, as soon as it is). */
  open(): void;
  /** Removes the widget and its listeners; no callback is called after it. */
  destroy(): void;
}

/** `window.AggregationConnect`, which `/connect/connect.js` defines. */
export interface AggregationConnect {
  setup(options: EnrollmentOptions): ConnectHandler;
  setup(options: ReconnectOptions): ConnectHandler;
  setup(options: ApprovalOptions): ConnectHandler;
  setup(options: ConnectOptions): ConnectHandler;
  /** The widget's version (the package's). */
  readonly version: string;
}
