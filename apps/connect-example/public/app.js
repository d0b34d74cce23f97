// The example page: the sandbox's enrollment widget (connect.js) connects a bank, approves a payment the bank wants
// confirmed and reconnects a broken connection; this app's backend does the rest. The access token goes from the
// widget's onSuccess to the backend, which verifies its signatures and keeps it.
const $ = (id) => document.getElementById(id);
const say = (text) => {
  $('status').textContent = text;
};

async function backend(method, path, body) {
  const response = await fetch(path, {
    method,
    headers: body ? { 'content-type': 'application/json' } : {},
    body: body ? JSON.stringify(body) : undefined,
  });
  const answer = await response.json();
  if (!response.ok) throw Object.assign(new Error(answer.error?.message ?? response.statusText), { code: answer.error?.code });
  return answer;
}

function loadScript(src) {
  return new Promise((resolve, reject) => {
    const script = document.createElement('script');
    script.src = src;
    script.addEventListener('load', resolve);
    script.addEventListener('error', () => reject(new Error(`Could not load ${src}: is the sandbox running?`)));
    document.head.append(script);
  });
}

function logEvent(name, data) {
  const item = document.createElement('li');
  item.textContent = `${name} (${data.step})${data.error ? `: ${data.error.code}` : ''}`;
  item.dataset.name = name;
  $('events').append(item);
}

const session = await backend('GET', '/api/session');
await loadScript(`${session.sandboxUrl}/connect/connect.js`).catch((error) => {
  say(error.message);
  throw error;
});

/** One run of the widget for `options` (a reconnect, an approval): resolves to how it ended. */
function runWidget(options) {
  return new Promise((resolve) => {
    const handler = window.AggregationConnect.setup({
      applicationId: session.applicationId,
      ...options,
      onSuccess: (result) => {
        handler.destroy();
        resolve({ outcome: 'success', result });
      },
      onExit: () => {
        handler.destroy();
        resolve({ outcome: 'exit' });
      },
      // The widget shows what failed until the user closes it; the page says it too.
      onFailure: ({ error }) => resolve({ outcome: 'failure', error }),
      onEvent: logEvent,
    });
    handler.open();
  });
}

function showEnrolled(enrollment) {
  $('connect-section').hidden = Boolean(enrollment);
  $('institution').textContent = enrollment?.institution.name ?? '';
  $('reconnect-institution').textContent = enrollment?.institution.name ?? 'your bank';
}

/** Sends the widget's result to the backend, which verifies it before it keeps the token. */
async function keep(result) {
  const { enrollment } = await backend('POST', '/api/enrollments', result);
  showEnrolled(enrollment);
  return enrollment;
}

function renderAccounts(accounts) {
  const list = $('accounts');
  list.replaceChildren();
  for (const account of accounts) {
    const item = document.createElement('li');
    item.textContent = `${account.name} •••• ${account.lastFour} (${account.subtype.replaceAll('_', ' ')})`;
    const show = document.createElement('button');
    show.type = 'button';
    show.textContent = 'Transactions';
    show.setAttribute('aria-label', `Transactions of ${account.name}`);
    show.addEventListener('click', () => showTransactions(account));
    item.append(show);
    list.append(item);
  }
  $('pay-from').replaceChildren(
    ...accounts.filter((account) => account.canPay).map((account) => new Option(`${account.name} •••• ${account.lastFour}`, account.id)),
  );
  $('accounts-section').hidden = false;
  $('pay-section').hidden = !accounts.some((account) => account.canPay);
}

async function showTransactions(account) {
  try {
    const transactions = await backend('GET', `/api/accounts/${encodeURIComponent(account.id)}/transactions`);
    $('reconnect-banner').hidden = true;
    $('transactions-account').textContent = account.name;
    const rows = $('transactions').tBodies[0];
    rows.replaceChildren();
    for (const transaction of transactions) {
      const row = rows.insertRow();
      row.insertCell().textContent = transaction.date;
      row.insertCell().textContent = transaction.description;
      const amount = row.insertCell();
      amount.textContent = transaction.amount;
      amount.className = 'amount';
      row.insertCell().textContent = transaction.status;
    }
    $('transactions-section').hidden = false;
  } catch (error) {
    if (!String(error.code).startsWith('enrollment.disconnected')) throw error;
    // The bank stopped answering for this enrollment: the user reconnects through the widget.
    $('transactions-section').hidden = true;
    $('reconnect-banner').hidden = false;
  }
}

async function refresh() {
  const accounts = await backend('GET', '/api/accounts');
  renderAccounts(accounts);
  const first = accounts.find((account) => account.canPay) ?? accounts[0];
  if (first) await showTransactions(first);
  say(`Showing ${accounts.length} accounts.`);
}

// The widget that connects a bank, set up once: onInit says it is loaded and the button can open it.
const connect = window.AggregationConnect.setup({
  applicationId: session.applicationId,
  nonce: session.nonce,
  selectAccount: 'multiple',
  products: ['transactions', 'balance'],
  onInit: () => {
    $('connect').disabled = false;
  },
  onSuccess: async (result) => {
    say('Connected. Verifying…');
    await keep(result);
    await refresh();
    // The button that opened the widget is gone: focus goes to what it connected.
    $('accounts-heading').focus();
  },
  onExit: () => say('You closed the widget: nothing was connected.'),
  onFailure: ({ error }) => say(`Could not connect: ${error.message} (${error.code})`),
  onEvent: logEvent,
});
$('connect').addEventListener('click', () => connect.open());

$('reconnect').addEventListener('click', async () => {
  const current = await backend('GET', '/api/session');
  const ended = await runWidget({ enrollmentId: current.enrollment.id, nonce: session.nonce });
  if (ended.outcome === 'success') {
    await keep(ended.result);
    await refresh();
    say('Reconnected.');
  } else if (ended.outcome === 'exit') say('You closed the widget: the connection is still broken.');
  else say(`Could not reconnect: ${ended.error.message} (${ended.error.code})`);
});

const payStatus = (text) => {
  $('pay-status').textContent = text;
};

/** The payment whose approval the user closed: the button opens its approval again. */
let waiting;

/** Has the user approve a payment the bank holds, then sends it again: the same request, with the same key. */
async function approve(pending) {
  $('approve-pending').hidden = true;
  const ended = await runWidget({ connectToken: pending.connectToken });
  if (ended.outcome === 'exit') {
    // Still waiting for the user: the button opens the same approval again.
    waiting = pending;
    $('approve-pending').hidden = false;
    return payStatus('Payment not sent: you closed the approval. It waits for your approval.');
  }
  if (ended.outcome === 'failure') return payStatus(`Payment not sent: ${ended.error.message} (${ended.error.code})`);
  const answer = await backend('POST', `/api/payments/${encodeURIComponent(pending.id)}/confirm`);
  if (answer.status === 'sent') payStatus(`Sent $${answer.payment.amount} (reference ${answer.payment.reference}).`);
  else payStatus('Payment not sent: the bank still asks for approval.');
}

$('pay').addEventListener('submit', async (event) => {
  event.preventDefault();
  try {
    const answer = await backend('POST', '/api/payments', Object.fromEntries(new FormData(event.target)));
    if (answer.status === 'sent') return payStatus(`Sent $${answer.payment.amount} (reference ${answer.payment.reference}).`);
    payStatus('Your bank asks you to approve this payment.');
    await approve(answer);
  } catch (error) {
    payStatus(`Payment not sent: ${error.message}`);
  }
});

$('approve-pending').addEventListener('click', () => approve(waiting).catch((error) => payStatus(`Payment not sent: ${error.message}`)));

if (session.enrollment) {
  showEnrolled(session.enrollment);
  await refresh();
}
