// The content of each step: a heading (which the dialog is labelled by and focus lands on), then the step's form.
// Views only build elements and call the handlers they are given; the flow decides what happens next.
import type { ConnectError } from '../../types.ts';
import type { Challenge, Institution, SessionAccount } from './api.ts';
import { h } from './dom.ts';

export interface View {
  /** The step's content, heading first. */
  content: HTMLElement;
  /** What takes focus when the step is shown: the first field, or the heading. */
  focus: HTMLElement;
}

export const TITLE_ID = 'step-title';

const heading = (text: string) => h('h1', { id: TITLE_ID, tabindex: -1 }, text);

/** An error line under a form: announced when it appears, and describing the fields it is about. */
export function errorLine(id: string): HTMLParagraphElement {
  return h('p', { id, class: 'error', role: 'alert', hidden: true });
}

export function showError(line: HTMLElement, fields: HTMLInputElement[], error: ConnectError | string | undefined): void {
  const message = typeof error === 'string' ? error : error?.message;
  line.textContent = message ?? '';
  line.hidden = !message;
  for (const field of fields) {
    if (message) {
      field.setAttribute('aria-invalid', 'true');
      field.setAttribute('aria-describedby', line.id);
    } else {
      field.removeAttribute('aria-invalid');
      field.removeAttribute('aria-describedby');
    }
  }
}

export function loadingView(text: string): View {
  const title = heading(text);
  return {
    content: h('div', { class: 'step loading', 'aria-busy': 'true' }, title, h('div', { class: 'spinner', 'aria-hidden': 'true' })),
    focus: title,
  };
}

export function institutionsView(
  applicationName: string,
  institutions: Institution[],
  handlers: { choose: (institution: Institution) => void; searched: (query: string, results: number) => void },
): View {
  const title = heading('Select your institution');
  const search = h('input', {
    id: 'institution-search',
    type: 'search',
    autocomplete: 'off',
    spellcheck: 'false',
    'aria-describedby': 'institution-count',
  });
  const count = h('p', { id: 'institution-count', class: 'hint', role: 'status' });
  const list = h('ul', { class: 'institutions', 'aria-label': 'Institutions' });
  const render = (query: string) => {
    const wanted = query.trim().toLowerCase();
    const shown = institutions.filter((institution) => !wanted || institution.name.toLowerCase().includes(wanted) || institution.id.includes(wanted));
    list.replaceChildren(
      ...shown.map((institution) =>
        h(
          'li',
          {},
          h(
            'button',
            { type: 'button', class: 'institution', 'data-id': institution.id, onclick: () => handlers.choose(institution) },
            institution.name,
          ),
        ),
      ),
    );
    count.textContent =
      shown.length === 0 ? `No institution matches “${query.trim()}”.` : `${shown.length} institution${shown.length === 1 ? '' : 's'}`;
    return shown.length;
  };
  search.addEventListener('input', () => handlers.searched(search.value, render(search.value)));
  render('');
  return {
    content: h(
      'div',
      { class: 'step' },
      title,
      h('p', {}, `${applicationName} uses the sandbox to connect your accounts. Choose where you bank.`),
      h('label', { for: search.id }, 'Search institutions'),
      search,
      count,
      list,
    ),
    focus: search,
  };
}

/** The sandbox's test users, as the Sandbox guide lists them: shown beside the sign-in form. */
const TEST_USERS = 'Sandbox test users: username (password: password), mfa.device (code 1234), mfa.payments, verify.microdeposit, disconnected.';

export function credentialsView(
  institution: { name: string },
  reconnect: boolean,
  submit: (fields: { username: string; password: string }, form: CredentialsForm) => void,
): View & { form: CredentialsForm } {
  const title = heading(reconnect ? `Reconnect to ${institution.name}` : `Sign in to ${institution.name}`);
  const username = h('input', {
    id: 'username',
    name: 'username',
    autocomplete: 'username',
    autocapitalize: 'none',
    spellcheck: 'false',
    required: true,
  });
  const password = h('input', { id: 'password', name: 'password', type: 'password', autocomplete: 'current-password', required: true });
  const error = errorLine('credentials-error');
  const button = h('button', { type: 'submit', class: 'primary' }, 'Sign in');
  const form: CredentialsForm = { username, password, error, button };
  const element = h(
    'form',
    { class: 'step', novalidate: true },
    title,
    h(
      'p',
      {},
      reconnect
        ? `Your connection to ${institution.name} stopped working. Sign in again to restore it.`
        : `Enter the username and password you use at ${institution.name}.`,
    ),
    h('label', { for: username.id }, 'Username'),
    username,
    h('label', { for: password.id }, 'Password'),
    password,
    error,
    button,
    h('p', { class: 'hint' }, TEST_USERS),
  );
  element.addEventListener('submit', (event) => {
    event.preventDefault();
    const missing = [username, password].filter((field) => field.value === '');
    if (missing.length > 0) {
      showError(error, missing, `Enter your ${missing.map((field) => field.name).join(' and ')}.`);
      missing[0]!.focus();
      return;
    }
    showError(error, [username, password], undefined);
    submit({ username: username.value, password: password.value }, form);
  });
  return { content: element, focus: username, form };
}

export interface CredentialsForm {
  username: HTMLInputElement;
  password: HTMLInputElement;
  error: HTMLParagraphElement;
  button: HTMLButtonElement;
}

export function mfaView(prompt: string, submit: (code: string, field: HTMLInputElement, error: HTMLParagraphElement) => void): View {
  const title = heading('Enter your code');
  const code = h('input', { id: 'mfa-code', name: 'code', inputmode: 'numeric', autocomplete: 'one-time-code', spellcheck: 'false', required: true });
  const error = errorLine('mfa-error');
  const element = h(
    'form',
    { class: 'step', novalidate: true },
    title,
    h('p', { id: 'mfa-prompt' }, prompt),
    h('label', { for: code.id }, 'One-time code'),
    code,
    error,
    h('button', { type: 'submit', class: 'primary' }, 'Verify'),
  );
  code.setAttribute('aria-describedby', 'mfa-prompt');
  element.addEventListener('submit', (event) => {
    event.preventDefault();
    if (code.value.trim() === '') {
      showError(error, [code], 'Enter the code.');
      return;
    }
    submit(code.value.trim(), code, error);
  });
  return { content: element, focus: code };
}

function accountLabel(account: SessionAccount): string {
  return `${account.name} •••• ${account.last_four} (${account.subtype.replaceAll('_', ' ')})`;
}

export function accountsView(
  applicationName: string,
  accounts: SessionAccount[],
  multiple: boolean,
  submit: (ids: string[], error: HTMLParagraphElement) => void,
): View {
  const title = heading(multiple ? 'Choose accounts' : 'Choose an account');
  const error = errorLine('accounts-error');
  const inputs = accounts.map((account, index) =>
    h('input', { id: `account-${index}`, type: multiple ? 'checkbox' : 'radio', name: 'account', value: account.id, checked: multiple }),
  );
  const legend = multiple ? `Accounts to share with ${applicationName}` : `The account to share with ${applicationName}`;
  const element = h(
    'form',
    { class: 'step', novalidate: true },
    title,
    h(
      'fieldset',
      { 'aria-describedby': error.id },
      h('legend', {}, legend),
      ...accounts.map((account, index) => h('div', { class: 'choice' }, inputs[index]!, h('label', { for: inputs[index]!.id }, accountLabel(account)))),
    ),
    error,
    h('button', { type: 'submit', class: 'primary' }, 'Continue'),
  );
  element.addEventListener('submit', (event) => {
    event.preventDefault();
    const chosen = inputs.filter((input) => input.checked).map((input) => input.value);
    if (chosen.length === 0) {
      showError(error, inputs, multiple ? 'Choose at least one account.' : 'Choose an account.');
      inputs[0]?.focus();
      return;
    }
    submit(chosen, error);
  });
  return { content: element, focus: inputs[0] ?? title };
}

/** What the challenge's request would do, as label and value lines. */
function challengeRows(challenge: Challenge, institution: { name: string } | null): [string, string][] {
  const { request } = challenge;
  const rows: [string, string | undefined][] =
    challenge.operation === 'create_payment'
      ? [
          ['Amount', request.amount === undefined ? undefined : `$${request.amount}`],
          ['To', request.payee?.name ?? request.payee?.address],
          ['Address', request.payee?.name ? request.payee.address : undefined],
          ['Memo', request.memo],
        ]
      : [
          ['Payee', request.name],
          ['Address', request.address],
        ];
  rows.push(['From', institution ? `Your ${institution.name} account` : undefined]);
  return rows.filter((row): row is [string, string] => typeof row[1] === 'string' && row[1] !== '');
}

export function approveView(
  challenge: Challenge,
  institution: { name: string } | null,
  handlers: { approve: (error: HTMLParagraphElement) => void; cancel: () => void },
): View {
  const what = challenge.operation === 'create_payee' ? 'payee' : 'payment';
  const title = heading(`Approve this ${what}`);
  const error = errorLine('approve-error');
  const rows = challengeRows(challenge, institution);
  const approve = h('button', { type: 'button', class: 'primary', onclick: () => handlers.approve(error) }, `Approve ${what}`);
  return {
    content: h(
      'div',
      { class: 'step' },
      title,
      h(
        'p',
        {},
        what === 'payee'
          ? 'Your bank asks you to confirm this new payee before it is added.'
          : 'Your bank asks you to confirm this payment before it is sent.',
      ),
      rows.length > 0 && h('dl', { class: 'summary' }, ...rows.flatMap(([label, value]) => [h('dt', {}, label), h('dd', {}, value)])),
      error,
      h('div', { class: 'actions' }, approve, h('button', { type: 'button', class: 'secondary', onclick: handlers.cancel }, 'Cancel')),
    ),
    focus: approve,
  };
}

export function doneView(titleText: string, text: string, proceed: () => void): View {
  const title = heading(titleText);
  const button = h('button', { type: 'button', class: 'primary', onclick: proceed }, 'Continue');
  return {
    content: h('div', { class: 'step done' }, h('div', { class: 'check', 'aria-hidden': 'true' }, '✓'), title, h('p', {}, text), button),
    focus: title,
  };
}

export function failureView(error: ConnectError, close: () => void): View {
  const title = heading('The widget could not continue');
  return {
    content: h(
      'div',
      { class: 'step failure' },
      title,
      h('p', {}, error.message),
      h('p', { class: 'hint' }, `Error code: ${error.code}`, error.requestId ? ` · Request-Id: ${error.requestId}` : ''),
      h('button', { type: 'button', class: 'primary', onclick: close }, 'Close'),
    ),
    focus: title,
  };
}
