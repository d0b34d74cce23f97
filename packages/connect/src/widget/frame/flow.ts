// One run of the widget, from `open` to success, exit or failure: creates the connect session, shows each step the
// sandbox answers with, reports events, and hands the result to the page. Errors the user can correct (a wrong
// password or code) stay on their step; any other error ends the run with the failure step and `onFailure`.
import type { FrameMessage, FrameOptions } from '../../protocol.ts';
import type { ConnectApproval, ConnectEnrollment, ConnectError, ConnectEventArgs, ConnectReconnection, ConnectStep } from '../../types.ts';
import { type ApprovalResult, type EnrollmentResult, type Institution, type Session, type SessionApi, sessionApi, WidgetError } from './api.ts';
import {
  accountsView,
  approveView,
  credentialsView,
  doneView,
  failureView,
  institutionsView,
  loadingView,
  mfaView,
  showError,
  type View,
} from './views.ts';

/** What the flow needs of the dialog around it. */
export interface Dialog {
  show(view: View, back?: () => void): void;
  post(message: FrameMessage): void;
  /** Hides the dialog after a failure, once the user has read it. */
  close(): void;
}

/** Codes the user corrects on the step itself. */
const CORRECTABLE = new Set(['credentials_invalid', 'mfa.code_invalid']);

const asConnectError = (error: unknown): ConnectError =>
  error instanceof WidgetError ? error.toJSON() : { code: 'widget.error', message: error instanceof Error ? error.message : String(error) };

function enrollmentOf(result: EnrollmentResult): ConnectEnrollment | ConnectReconnection {
  const shared = {
    user: { id: result.user.id },
    enrollment: { id: result.enrollment.id, institution: { id: result.enrollment.institution.id, name: result.enrollment.institution.name } },
    signatures: result.signatures.map(({ key_id, algorithm, signature }) => ({ key_id, algorithm, signature })),
  };
  return result.access_token === null ? { accessToken: null, ...shared } : { accessToken: result.access_token, ...shared };
}

const approvalOf = (result: ApprovalResult): ConnectApproval => ({ connectToken: result.connect_token, status: 'approved' });

/** Institutions offering every product asked for; `verify` is met by instant or microdeposit verification. */
function offering(institutions: Institution[], products: readonly string[] | undefined): Institution[] {
  if (!products?.length) return institutions;
  return institutions.filter((institution) =>
    products.every((product) =>
      product === 'verify'
        ? institution.products.includes('verify.instant') || institution.products.includes('verify.microdeposit')
        : institution.products.includes(product),
    ),
  );
}

export class Flow {
  private step: ConnectStep = 'loading';
  private session: Session | undefined;
  private ended = false;
  private busy = false;
  private readonly dialog: Dialog;
  private readonly options: FrameOptions;
  private readonly api: SessionApi;

  constructor(dialog: Dialog, options: FrameOptions) {
    this.dialog = dialog;
    this.options = options;
    this.api = sessionApi(options.applicationId);
  }

  private emit(...[name, data]: DistributiveOmit<ConnectEventArgs>): void {
    const full = { ...data, step: this.step, ...(this.session ? { sessionId: this.session.id } : {}) };
    this.dialog.post({ type: 'event', args: [name, full] as ConnectEventArgs });
  }

  private show(step: ConnectStep, view: View, back?: () => void): void {
    this.step = step;
    this.dialog.show(view, back);
    this.emit('step', {});
  }

  async start(): Promise<void> {
    const { options } = this;
    const mode = options.connectToken ? 'approve' : options.enrollmentId ? 'reconnect' : 'enroll';
    this.show('loading', loadingView(mode === 'approve' ? 'Loading the request' : 'Connecting to the sandbox'));
    this.emit('open', { mode });
    try {
      const [session, institutions] = await Promise.all([
        this.api.create({
          ...(options.products ? { products: options.products } : {}),
          ...(options.selectAccount ? { select_account: options.selectAccount } : {}),
          ...(options.nonce ? { nonce: options.nonce } : {}),
          ...(options.enrollmentId ? { enrollment_id: options.enrollmentId } : {}),
          ...(options.connectToken ? { connect_token: options.connectToken } : {}),
        }),
        mode === 'enroll' ? this.api.institutions() : Promise.resolve([]),
      ]);
      if (this.ended) return;
      this.session = session;
      if (session.mode === 'enroll' && session.step === 'credentials') this.institutions(offering(institutions, options.products));
      else this.advance(session);
    } catch (error) {
      this.fail(error);
    }
  }

  /** Shows the step the session answered with. */
  private advance(session: Session): void {
    this.session = session;
    switch (session.step) {
      case 'credentials':
        this.credentials(session.institution!, undefined);
        break;
      case 'mfa':
        this.show(
          'mfa',
          mfaView(session.mfa?.prompt ?? 'Enter the one-time code your bank sent you.', (code, field, error) => this.submitMfa(code, field, error)),
        );
        break;
      case 'select_accounts':
        this.show(
          'accounts',
          accountsView(session.application.name, session.accounts ?? [], session.select_account === 'multiple', (ids, error) =>
            this.submitAccounts(ids, error),
          ),
        );
        break;
      case 'approve':
        this.show(
          'approve',
          approveView(session.challenge!, session.institution, {
            approve: (error) => this.approve(error),
            cancel: () => this.exit(),
          }),
        );
        break;
      case 'done':
        this.done(session);
        break;
    }
  }

  private institutions(institutions: Institution[]): void {
    const session = this.session!;
    this.show(
      'institutions',
      institutionsView(session.application.name, institutions, {
        choose: (institution) => {
          this.emit('institution.selected', { institution: { id: institution.id, name: institution.name } });
          this.credentials(institution, () => this.institutions(institutions));
        },
        searched: (query, results) => this.emit('institution.search', { query, results }),
      }),
    );
  }

  /** Signing in: at the institution the user picked (enrolling), or at the enrollment's (reconnecting). */
  private credentials(institution: { id: string; name: string }, back: (() => void) | undefined): void {
    const reconnect = this.session!.mode === 'reconnect';
    const view = credentialsView(institution, reconnect, (fields, form) =>
      this.run(
        () => {
          this.emit('credentials.submitted', { institution: { id: institution.id, name: institution.name } });
          return this.api.credentials(this.session!.id, reconnect ? fields : { institution_id: institution.id, ...fields });
        },
        (error) => {
          showError(form.error, [form.username, form.password], error);
          form.password.select();
          form.password.focus();
        },
      ),
    );
    this.show('credentials', view, back);
  }

  private submitMfa(code: string, field: HTMLInputElement, error: HTMLParagraphElement): void {
    this.run(
      () => {
        this.emit('mfa.submitted', {});
        return this.api.mfa(this.session!.id, code);
      },
      (failure) => {
        showError(error, [field], failure);
        field.select();
        field.focus();
      },
    );
  }

  private submitAccounts(ids: string[], error: HTMLParagraphElement): void {
    this.run(
      () => {
        this.emit('accounts.selected', { count: ids.length });
        return this.api.accounts(this.session!.id, ids);
      },
      (failure) => showError(error, [], failure),
    );
  }

  private approve(error: HTMLParagraphElement): void {
    this.run(
      () => {
        this.emit('approval.submitted', {});
        return this.api.approve(this.session!.id);
      },
      (failure) => showError(error, [], failure),
    );
  }

  /** Sends one step's answer; a correctable error goes back to the step, any other ends the run. */
  private async run(send: () => Promise<Session>, correct: (error: ConnectError) => void): Promise<void> {
    if (this.busy || this.ended) return;
    this.busy = true;
    try {
      const next = await send();
      if (!this.ended) this.advance(next);
    } catch (error) {
      if (this.ended) return;
      if (error instanceof WidgetError && CORRECTABLE.has(error.code)) {
        this.emit('error', { error: error.toJSON() });
        correct(error.toJSON());
      } else this.fail(error);
    } finally {
      this.busy = false;
    }
  }

  private done(session: Session): void {
    const result = session.result;
    if (!result) {
      this.fail(new WidgetError('widget.error', 'The sandbox finished the session without a result.'));
      return;
    }
    const approval = 'connect_token' in result;
    const institution = approval ? undefined : result.enrollment.institution.name;
    const [title, text] = approval
      ? ['Approved', 'Your bank has your approval. You can return to the app.']
      : session.mode === 'reconnect'
        ? ['Reconnected', `Your connection to ${institution} works again.`]
        : ['Connected', `Your ${institution} accounts are connected to ${session.application.name}.`];
    const handOff = () => {
      if (this.ended) return;
      this.ended = true;
      this.emit('success', {});
      this.dialog.post({ type: 'success', result: approval ? approvalOf(result) : enrollmentOf(result) });
    };
    this.show('done', doneView(title, text, handOff));
    this.dismiss = handOff;
  }

  private fail(error: unknown): void {
    if (this.ended) return;
    this.ended = true;
    const failure = asConnectError(error);
    this.show(
      'failure',
      failureView(failure, () => this.dialog.close()),
    );
    this.emit('failure', { error: failure });
    this.dialog.post({ type: 'failure', failure: { error: failure } });
    this.dismiss = () => this.dialog.close();
  }

  private exit(): void {
    if (this.ended) return;
    this.ended = true;
    this.emit('exit', {});
    this.dialog.post({ type: 'exit', exit: { step: this.step } });
  }

  /** What Escape and the close button do: leave, or hand the result over once there is one. */
  dismiss: () => void = () => this.exit();
}

/** The arguments of an event before the flow adds the step and the session's id. */
type DistributiveOmit<Args> = Args extends [infer Name, infer Data] ? [name: Name, data: Omit<Data, 'step' | 'sessionId'>] : never;
