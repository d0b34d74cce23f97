// The enrollment widget's sessions: one run of the widget, for an application named by its public id, that enrolls
// a new user, reconnects a disconnected enrollment or approves an MFA challenge, one step at a time. Each step is
// the same rule the control API uses (createEnrollment, reconnectEnrollment, approveConnectToken): built once, here
// only driven. A refused step changes nothing; the step that makes something moves the session to `done` in the
// same transaction, so a step sent twice takes effect once.
import type { AccountRow, ApplicationRow, ConnectMode, ConnectSessionRow, ConnectStep, EnrollmentRow, Repos, SelectAccount } from '../storage/store.ts';
import { isDefaultApplication } from './applications.ts';
import { DAY_MS } from './clock.ts';
import { approveConnectToken, type FoundConnectToken, findConnectToken, refuseUnapprovable } from './connect-tokens.ts';
import { type Deps, transactUnshown } from './context.ts';
import type { EnrollmentSignature } from './enrollment-signatures.ts';
import { checkSignInCode, createEnrollment, type PlannedEnrollment, planEnrollment, type SignedIn, signIn } from './enrollments.ts';
import { ApiError, unprocessable } from './errors.ts';
import { newConnectSessionId } from './ids.ts';
import { findInstitution, institution as institutionById, type Product } from './institutions.ts';
import { notDisconnected, reconnectEnrollment } from './lifecycle.ts';
import { checkEnrollmentLimits, type SandboxLimits } from './limits.ts';
import { enrollmentSignatures } from './signing-keys.ts';

/** How long a session can be driven (real time). */
export const CONNECT_SESSION_LIFETIME_MS = 30 * 60_000;
/** Expired sessions are removed this long after they expired (until then their steps say they expired). */
const EXPIRED_KEPT_MS = DAY_MS;

/** What the application asks the widget for: the institution's products it needs. */
export type ConnectProduct = 'balance' | 'transactions' | 'payments' | 'verify' | 'verify.instant';

export interface StartInput {
  applicationId: string;
  /** Whether the server has a default application (a hosted sandbox may have none: then it is not found). */
  defaultApplication: boolean;
  products: readonly ConnectProduct[];
  selectAccount: SelectAccount;
  nonce: string | null;
  enrollmentId: string | null;
  connectToken: string | null;
}

/** What an enroll or reconnect run hands the application. */
export interface EnrollmentResult {
  kind: 'enrollment';
  accessToken: string | null;
  enrollment: EnrollmentRow;
  accounts: AccountRow[];
  signatures: EnrollmentSignature[];
}

export interface ApprovalResult {
  kind: 'approval';
  connectToken: string;
}

/** A session as its steps answer it. */
export interface SessionState {
  session: ConnectSessionRow;
  application: ApplicationRow;
  /** Approving: the challenge. */
  challenge: FoundConnectToken | undefined;
  /** Done: what the run hands the application. */
  result: EnrollmentResult | ApprovalResult | undefined;
}

export const applicationNotFound = (id: string): ApiError =>
  new ApiError(404, 'application.not_found', `No application ${id} on this sandbox: use the id of GET /sandbox/application.`);

const enrollmentNotFound = (id: string): ApiError => new ApiError(404, 'enrollment.not_found', `No enrollment ${id} of this application.`);

const sessionNotFound = (): ApiError => new ApiError(404, 'connect_session.not_found', 'No such enrollment widget session for this application.');

const wrongStep = (at: ConnectStep, asked: ConnectStep): ApiError =>
  new ApiError(
    409,
    'connect_session.wrong_step',
    at === 'done' ? 'The session is done: open the widget again.' : `The session is at step ${at}, not ${asked}.`,
  );

/** Starts a session; a refusal (application, challenge or enrollment unknown or unusable) writes nothing. */
export async function startConnectSession(deps: Deps, input: StartInput): Promise<SessionState> {
  const application = await deps.store.applications.get(input.applicationId);
  if (!application || (isDefaultApplication(application.id) && !input.defaultApplication)) throw applicationNotFound(input.applicationId);
  if (input.enrollmentId !== null && input.connectToken !== null) throw unprocessable({ connect_token: ['cannot be given with enrollment_id'] });
  let mode: ConnectMode = 'enroll';
  let institutionId: string | null = null;
  let challenge: FoundConnectToken | undefined;
  if (input.connectToken !== null) {
    challenge = await findConnectToken(deps, application.id, input.connectToken);
    refuseUnapprovable(challenge.status);
    mode = 'approve';
    institutionId = challenge.enrollment.institution_id;
  } else if (input.enrollmentId !== null) {
    const enrollment = await reconnectable(deps.store, application.id, input.enrollmentId);
    mode = 'reconnect';
    institutionId = enrollment.institution_id;
  }
  const now = deps.now();
  const session: ConnectSessionRow = {
    id: newConnectSessionId(),
    application_id: application.id,
    mode,
    step: mode === 'approve' ? 'approve' : 'credentials',
    products: JSON.stringify(input.products),
    select_account: input.selectAccount,
    nonce: input.nonce,
    enrollment_id: input.enrollmentId,
    connect_token: input.connectToken,
    institution_id: institutionId,
    username: null,
    pending: null,
    created_at: now,
    expires_at: now + CONNECT_SESSION_LIFETIME_MS,
  };
  await transactUnshown(deps, async (tx) => {
    await tx.connectSessions.deleteExpired(now - EXPIRED_KEPT_MS);
    await tx.connectSessions.insert(session);
  });
  return { session, application, challenge, result: undefined };
}

/** The application's enrollment, disconnected: else not found (unknown, another's, deleted) or refused (healthy). */
async function reconnectable(store: Repos, applicationId: string, enrollmentId: string): Promise<EnrollmentRow> {
  const enrollment = await store.enrollments.get(enrollmentId);
  if (!enrollment || enrollment.application_id !== applicationId || enrollment.revoked_at !== null || enrollment.mode !== 'sandbox') {
    throw enrollmentNotFound(enrollmentId);
  }
  if (enrollment.status !== 'disconnected') throw notDisconnected();
  return enrollment;
}

/** The application's session at `step`, while it lasts. */
async function sessionAt(
  deps: Deps,
  sessionId: string,
  applicationId: string,
  step: ConnectStep,
): Promise<{ session: ConnectSessionRow; application: ApplicationRow }> {
  const session = await deps.store.connectSessions.get(sessionId);
  if (!session || session.application_id !== applicationId) throw sessionNotFound();
  if (deps.now() >= session.expires_at) {
    throw new ApiError(422, 'connect_session.expired', 'The enrollment widget session expired 30 minutes after it began: open the widget again.');
  }
  if (session.step !== step) throw wrongStep(session.step, step);
  const application = await deps.store.applications.get(applicationId);
  if (!application) throw sessionNotFound();
  return { session, application };
}

/** In the transaction that makes the step's effect: the session, still at `step`, moves on (else nothing is made). */
const moveOn =
  (session: ConnectSessionRow, patch: Partial<ConnectSessionRow>) =>
  async (tx: Repos): Promise<void> => {
    const current = await tx.connectSessions.getForUpdate(session.id);
    if (!current || current.step !== session.step) throw wrongStep(current?.step ?? 'done', session.step);
    await tx.connectSessions.update(session.id, patch);
  };

/** Moves the session on by itself, when the step made nothing (the next step is a question to the user). */
async function advance(deps: Deps, session: ConnectSessionRow, patch: Partial<ConnectSessionRow>): Promise<ConnectSessionRow> {
  await transactUnshown(deps, moveOn(session, patch));
  return { ...session, ...patch };
}

const productsOf = (session: ConnectSessionRow): ConnectProduct[] => JSON.parse(session.products) as ConnectProduct[];

/** Whether the institution offers the product (`verify`: account numbers, at once or by microdeposit). */
function offers(products: readonly Product[], product: ConnectProduct): boolean {
  if (product === 'verify') return products.includes('verify.instant') || products.includes('verify.microdeposit');
  return products.includes(product);
}

export interface CredentialsInput {
  applicationId: string;
  institutionId: string | undefined;
  username: string;
  password: string;
}

/** Where the enrollments a step makes count against the limits. */
export interface Limited {
  limits: SandboxLimits;
  clientAddress: string | null;
}

/** Sign-in: the next step is the one-time code, the accounts to choose, or done. */
export async function submitCredentials(deps: Deps, sessionId: string, input: CredentialsInput, limited: Limited): Promise<SessionState> {
  const { session, application } = await sessionAt(deps, sessionId, input.applicationId, 'credentials');
  let institutionId = input.institutionId;
  if (session.mode === 'reconnect') {
    const enrollment = await reconnectable(deps.store, application.id, session.enrollment_id!);
    if (institutionId !== undefined && institutionId !== enrollment.institution_id) {
      throw unprocessable({ institution_id: [`must be the enrollment's institution, ${enrollment.institution_id}`] });
    }
    institutionId = enrollment.institution_id;
    // The bank knows this enrollment's user only.
    if (input.username !== enrollment.username) {
      throw new ApiError(401, 'credentials_invalid', "These are not the credentials of the enrollment's user: sign in as the user who enrolled.");
    }
  } else {
    if (institutionId === undefined) throw unprocessable({ institution_id: ['is required: the institution the user picked'] });
    const bank = findInstitution(institutionId);
    const missing = bank && productsOf(session).filter((product) => !offers(bank.products, product));
    if (missing && missing.length > 0) throw unprocessable({ institution_id: missing.map((product) => `${bank!.name} does not offer ${product}`) });
  }
  const signedIn = signIn(deps, { username: input.username, password: input.password, institution: institutionId, field: 'institution_id' });
  const signedInAs = { institution_id: signedIn.bank.id, username: input.username };
  if (signedIn.login.signInCode !== null) return stateOf(await advance(deps, session, { ...signedInAs, step: 'mfa' }), application);
  return afterSignIn(deps, { ...session, ...signedInAs }, application, signedIn, limited);
}

/** The one-time code: the next step is the accounts to choose, or done. */
export async function submitMfaCode(
  deps: Deps,
  sessionId: string,
  input: { applicationId: string; code: string },
  limited: Limited,
): Promise<SessionState> {
  const { session, application } = await sessionAt(deps, sessionId, input.applicationId, 'mfa');
  const signedIn = resumed(deps, session);
  checkSignInCode(signedIn.login, input.code);
  return afterSignIn(deps, session, application, signedIn, limited);
}

/** The user's login, once signed in (the session keeps who, not the password). */
function resumed(deps: Deps, session: ConnectSessionRow): SignedIn {
  return { login: deps.institutions.resume(session.username!, deps.maxHistory), bank: institutionById(session.institution_id!) };
}

/** Signed in (and past the code): reconnect, or let the user choose accounts, or enroll. */
async function afterSignIn(
  deps: Deps,
  session: ConnectSessionRow,
  application: ApplicationRow,
  signedIn: SignedIn,
  limited: Limited,
): Promise<SessionState> {
  if (session.mode === 'reconnect') {
    const enrollment = await reconnectEnrollment(deps, session.enrollment_id!, moveOn(session, { step: 'done' }));
    const accounts = await deps.store.accounts.listByEnrollment(enrollment.id);
    return done(deps, session, application, { accessToken: null, enrollment, accounts });
  }
  if (session.select_account !== 'disabled') {
    const planned = planEnrollment(deps, session.username!, signedIn.login);
    const moved = await advance(deps, session, {
      step: 'select_accounts',
      institution_id: session.institution_id,
      username: session.username,
      pending: JSON.stringify(planned),
    });
    return stateOf(moved, application);
  }
  return enroll(deps, session, application, signedIn, limited, {});
}

/** The accounts the user chose: the enrollment is made with only those granted. */
export async function selectConnectAccounts(
  deps: Deps,
  sessionId: string,
  input: { applicationId: string; accountIds: readonly string[] },
  limited: Limited,
): Promise<SessionState> {
  const { session, application } = await sessionAt(deps, sessionId, input.applicationId, 'select_accounts');
  const planned = JSON.parse(session.pending!) as PlannedEnrollment;
  const offered = new Set(planned.accounts.map((account) => account.id));
  const unknown = input.accountIds.filter((id) => !offered.has(id)).map((id) => `${id} is not one of the accounts offered`);
  if (unknown.length > 0) throw unprocessable({ account_ids: unknown });
  if (session.select_account === 'single' && input.accountIds.length !== 1) throw unprocessable({ account_ids: ['must hold exactly one account'] });
  return enroll(deps, session, application, resumed(deps, session), limited, { planned, granted: input.accountIds });
}

async function enroll(
  deps: Deps,
  session: ConnectSessionRow,
  application: ApplicationRow,
  signedIn: SignedIn,
  limited: Limited,
  selection: { planned?: PlannedEnrollment; granted?: readonly string[] },
): Promise<SessionState> {
  await checkEnrollmentLimits(deps, limited.limits, application.id, limited.clientAddress);
  const created = await createEnrollment(deps, {
    username: session.username!,
    password: '',
    institution: signedIn.bank.id,
    signedIn,
    applicationId: application.id,
    clientAddress: limited.clientAddress,
    ...selection,
    within: moveOn(session, { step: 'done' }),
  });
  return done(deps, session, application, { accessToken: created.token, enrollment: created.enrollment, accounts: created.accounts });
}

async function done(
  deps: Deps,
  session: ConnectSessionRow,
  application: ApplicationRow,
  made: { accessToken: string | null; enrollment: EnrollmentRow; accounts: AccountRow[] },
): Promise<SessionState> {
  const signatures = await enrollmentSignatures(deps, application.id, {
    nonce: session.nonce,
    accessToken: made.accessToken,
    userId: made.enrollment.user_id,
    enrollmentId: made.enrollment.id,
  });
  return {
    session: { ...session, step: 'done', institution_id: made.enrollment.institution_id },
    application,
    challenge: undefined,
    result: { kind: 'enrollment', ...made, signatures },
  };
}

/** The user approves the session's challenge, as the control API's approval does. */
export async function approveConnectSession(deps: Deps, sessionId: string, input: { applicationId: string }): Promise<SessionState> {
  const { session, application } = await sessionAt(deps, sessionId, input.applicationId, 'approve');
  const token = session.connect_token!;
  const challenge = await approveConnectToken(deps, application.id, token, moveOn(session, { step: 'done' }));
  return { session: { ...session, step: 'done' }, application, challenge, result: { kind: 'approval', connectToken: token } };
}

/** A session waiting for its user's next answer. */
function stateOf(session: ConnectSessionRow, application: ApplicationRow): SessionState {
  return { session, application, challenge: undefined, result: undefined };
}
