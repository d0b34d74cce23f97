// The console at try/: sends a request to the sandbox that serves the docs (same origin) and shows the answer. Its
// form is generated from the descriptions: the operations of every document, their parameters with their examples,
// and the example of each request body. The reference links each operation here (try/?document=...&operation=...).
import { deref, type OpenApiDocument, type Operation, operationsOf } from '@aggregation/openapi/contract';
import { type DocumentName, isVersion } from './documents.ts';

export const tryPagePath = 'try/index.html';

/** The console's link to one operation, from the docs' root. */
export const tryLink = (document: string, operationId: string) =>
  `try/?document=${encodeURIComponent(document)}&operation=${encodeURIComponent(operationId)}`;

export type ConsoleParameter = { name: string; in: string; required: boolean; example: string; options: string[]; description: string };

export type ConsoleOperation = {
  document: string;
  title: string;
  operationId: string;
  method: string;
  path: string;
  summary: string;
  /** Whether the operation takes the access token. */
  authenticated: boolean;
  parameters: ConsoleParameter[];
  /** The request body's first example, as the text the form starts with. */
  body: string | undefined;
};

const firstLine = (text: unknown) => (typeof text === 'string' ? (text.trim().split(/\n\s*\n/)[0] ?? '').replace(/\s+/g, ' ') : '');

function exampleOf(parameter: Operation['parameters'][number], document: DocumentName): string {
  if (parameter.in === 'header' && parameter.name.toLowerCase() === 'service-version' && isVersion(document)) return document;
  // An id in a path is the reader's own: the console fills account_id in after enrolling.
  if (parameter.in === 'path') return '';
  const schema = parameter.schema ?? {};
  const found = [parameter.example, schema.example, Array.isArray(schema.examples) ? schema.examples[0] : undefined].find(
    (value) => value !== undefined,
  );
  return found === undefined ? '' : String(found);
}

function bodyExample(document: OpenApiDocument, operation: Operation): string | undefined {
  const [media] = operation.requestBody?.content ?? [];
  if (!media) return undefined;
  const { media: value } = media;
  let example: unknown = value.example;
  if (example === undefined && value.examples && typeof value.examples === 'object') {
    const [first] = Object.values(value.examples as Record<string, unknown>);
    example = deref<{ value?: unknown } | undefined>(document, first)?.value;
  }
  return example === undefined ? '{}' : JSON.stringify(example, null, 2);
}

/** What the console's form is generated from, for every operation of every document. */
export function consoleOperations(documents: readonly { name: DocumentName; title: string; bundle: OpenApiDocument }[]): ConsoleOperation[] {
  return documents.flatMap(({ name, title, bundle }) =>
    operationsOf(bundle).map((operation) => ({
      document: name,
      title,
      operationId: operation.operationId,
      method: operation.method.toUpperCase(),
      path: operation.path,
      summary: operation.summary,
      authenticated: operation.security.some((requirement) => Object.keys(requirement).length > 0),
      parameters: operation.parameters.map((parameter) => ({
        name: parameter.name,
        in: parameter.in,
        required: parameter.required,
        example: exampleOf(parameter, name),
        options: Array.isArray(parameter.schema?.enum) ? parameter.schema.enum.map(String) : [],
        description: firstLine((parameter as { description?: unknown }).description),
      })),
      body: bodyExample(bundle, operation),
    })),
  );
}

const style = `
.console { display: grid; gap: 1rem; }
.console fieldset { border: 1px solid #d0d7de; border-radius: 6px; padding: .75rem 1rem; }
.console legend { font-weight: 600; padding: 0 .3rem; }
.console label { display: block; font-weight: 600; margin-top: .6rem; font-size: 15px; }
.console .hint { font-size: 13px; color: #59636e; margin: .1rem 0; }
.console input, .console select, .console textarea { font: 14px ui-monospace, monospace; width: 100%; box-sizing: border-box; padding: .35rem .45rem;
  border: 1px solid #6e7781; border-radius: 4px; }
.console textarea { min-height: 9rem; }
.console button { font: inherit; padding: .4rem .9rem; border-radius: 6px; border: 1px solid #1f6feb; background: #0550ae; color: #fff; cursor: pointer; margin-top: .6rem; }
.console button.secondary { background: #fff; color: #0550ae; }
.answer pre { background: #f6f8fa; border: 1px solid #d0d7de; border-radius: 6px; padding: .75rem; overflow: auto; max-height: 28rem; }
.answer .status-line { font-size: 18px; font-weight: 600; }
`;

/** The console's page content; `operations` are embedded as JSON for the script. */
export function renderTryContent(operations: readonly ConsoleOperation[], currentVersion: string): string {
  // `<` escaped so that no text of the descriptions can close the script element.
  const data = JSON.stringify({ operations, currentVersion }).replace(/</g, '\\u003c');
  return `<style>${style}</style>
<h1>Try it</h1>
<p>Send a request to the sandbox that serves these docs and see its answer. Enroll a test user to get an access token (at once,
or through the enrollment widget, as your users would), choose an operation, then send it. Every request goes to this server only; the equivalent <code>curl</code> line is shown with the answer.</p>
<div class="console">
<fieldset>
<legend>Access token</legend>
<label for="token">Sandbox access token</label>
<p class="hint" id="token-hint">Sent with HTTP Basic authentication: the token as the username, an empty password.</p>
<input id="token" name="token" autocomplete="off" spellcheck="false" aria-describedby="token-hint" placeholder="test_token_...">
<button type="button" id="enroll" class="secondary">Enroll a test user</button>
<button type="button" id="connect-widget" class="secondary">Connect through the widget</button>
<label for="application-id">Application id (for the widget)</label>
<p class="hint" id="application-id-hint">The enrollment widget enrolls for this application: <code>app_default</code> in a local sandbox.</p>
<input id="application-id" name="application-id" autocomplete="off" spellcheck="false" aria-describedby="application-id-hint" value="app_default">
<p class="hint" id="enroll-status" role="status" aria-live="polite"></p>
</fieldset>
<form id="request">
<fieldset>
<legend>Request</legend>
<label for="operation">Operation</label>
<select id="operation" name="operation"></select>
<p class="hint" id="operation-line"></p>
<div id="parameters"></div>
<div id="body-field" hidden>
<label for="body">Request body (JSON)</label>
<textarea id="body" name="body" spellcheck="false"></textarea>
</div>
<button type="submit" id="send">Send</button>
</fieldset>
</form>
<section class="answer" aria-labelledby="answer-heading">
<h2 id="answer-heading">Answer</h2>
<p class="status-line" id="status" role="status" aria-live="polite">No request sent yet.</p>
<h3>Headers</h3>
<table id="headers"><thead><tr><th scope="col">Header</th><th scope="col">Value</th></tr></thead><tbody></tbody></table>
<h3>Body</h3>
<pre id="response-body" tabindex="0" role="region" aria-label="Response body"></pre>
<h3>The same request with curl</h3>
<pre id="curl" tabindex="0" role="region" aria-label="curl command"></pre>
</section>
</div>
<script type="application/json" id="console-data">${data}</script>
<script>${consoleScript}</script>`;
}

/** The console itself: plain browser JavaScript, inlined in the page. */
const consoleScript = `(() => {
  const { operations, currentVersion } = JSON.parse(document.getElementById('console-data').textContent);
  const $ = (id) => document.getElementById(id);
  // The API answers where the docs are mounted: <base>/docs/try/ -> <base>/.
  const api = new URL('../../', location.href).href.replace(/\\/$/, '');
  const key = (operation) => operation.document + '/' + operation.operationId;
  let enrolledAccount = '';

  const select = $('operation');
  for (const title of [...new Set(operations.map((operation) => operation.title))]) {
    const group = document.createElement('optgroup');
    group.label = title;
    for (const operation of operations.filter((candidate) => candidate.title === title)) {
      const option = new Option(operation.summary + ' (' + operation.method + ' ' + operation.path + ')', key(operation));
      group.append(option);
    }
    select.append(group);
  }
  const chosen = () => operations.find((operation) => key(operation) === select.value);

  function fieldId(parameter) { return 'param-' + parameter.in + '-' + parameter.name; }

  function showOperation() {
    const operation = chosen();
    $('operation-line').textContent = operation.method + ' ' + operation.path + (operation.authenticated ? ' (needs the access token)' : ' (no token needed)');
    const container = $('parameters');
    container.replaceChildren();
    for (const parameter of operation.parameters) {
      const label = document.createElement('label');
      label.htmlFor = fieldId(parameter);
      label.textContent = parameter.name + ' (' + parameter.in + (parameter.required ? ', required' : '') + ')';
      let input;
      if (parameter.options.length > 0) {
        input = document.createElement('select');
        if (!parameter.required) input.append(new Option('(not sent)', ''));
        for (const value of parameter.options) input.append(new Option(value, value));
      } else {
        input = document.createElement('input');
      }
      input.id = fieldId(parameter);
      input.dataset.name = parameter.name;
      input.dataset.in = parameter.in;
      input.required = parameter.required;
      input.value = parameter.name === 'account_id' && enrolledAccount ? enrolledAccount : parameter.example;
      container.append(label);
      if (parameter.description) {
        const hint = document.createElement('p');
        hint.className = 'hint';
        hint.id = fieldId(parameter) + '-hint';
        hint.textContent = parameter.description;
        input.setAttribute('aria-describedby', hint.id);
        container.append(hint);
      }
      container.append(input);
    }
    $('body-field').hidden = operation.body === undefined;
    $('body').value = operation.body ?? '';
    const query = new URLSearchParams({ document: operation.document, operation: operation.operationId });
    history.replaceState(null, '', '?' + query);
  }

  const params = new URLSearchParams(location.search);
  const wanted = operations.find((operation) => operation.document === params.get('document') && operation.operationId === params.get('operation'))
    ?? operations.find((operation) => operation.document === currentVersion && operation.operationId === 'listAccounts')
    ?? operations[0];
  select.value = key(wanted);
  select.addEventListener('change', showOperation);
  showOperation();

  /** Fills in what an enrollment gives: its token, and a paying account for the operations that take one. */
  function enrolled(token, accounts) {
    $('token').value = token;
    const paying = accounts.find((account) => account.links?.payments) ?? accounts[0];
    enrolledAccount = paying ? paying.id : '';
    for (const input of document.querySelectorAll('[data-name="account_id"]')) input.value = enrolledAccount;
  }

  // The enrollment widget that this sandbox serves at /connect/, loaded on first use.
  let widgetScript;
  const loadWidget = () => (widgetScript ??= new Promise((resolve, reject) => {
    const script = document.createElement('script');
    script.src = api + '/connect/connect.js';
    script.onload = () => resolve(window.AggregationConnect);
    script.onerror = () => { widgetScript = undefined; reject(new Error('the widget could not be loaded from ' + script.src)); };
    document.head.append(script);
  }));

  $('connect-widget').addEventListener('click', async () => {
    $('enroll-status').textContent = 'Opening the enrollment widget...';
    try {
      const connect = await loadWidget();
      const handler = connect.setup({
        applicationId: $('application-id').value.trim(),
        selectAccount: 'multiple',
        onSuccess: async (result) => {
          handler.destroy();
          const response = await fetch(api + '/accounts', { headers: { authorization: 'Basic ' + btoa(result.accessToken + ':') } });
          enrolled(result.accessToken, response.ok ? await response.json() : []);
          $('enroll-status').textContent = 'Enrolled ' + result.enrollment.id + ' at ' + result.enrollment.institution.name + ' through the widget; its token is filled in.';
        },
        onExit: () => {
          handler.destroy();
          $('enroll-status').textContent = 'The widget was closed: nothing was enrolled.';
        },
        onFailure: ({ error }) => {
          $('enroll-status').textContent = 'The widget failed: ' + error.message + ' (' + error.code + ')';
        },
      });
      handler.open();
    } catch (error) {
      $('enroll-status').textContent = 'The widget failed: ' + error.message;
    }
  });

  $('enroll').addEventListener('click', async () => {
    $('enroll-status').textContent = 'Enrolling the test user username...';
    try {
      const response = await fetch(api + '/sandbox/enrollments', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username: 'username', password: 'password' }),
      });
      const answer = await response.json();
      if (!response.ok) throw new Error(response.status + ' ' + (answer.error?.message ?? ''));
      enrolled(answer.access_token, answer.accounts);
      $('enroll-status').textContent = 'Enrolled ' + answer.enrollment.id + ' with ' + answer.accounts.length + ' accounts; its token is filled in.';
    } catch (error) {
      $('enroll-status').textContent = 'Enrollment failed: ' + error.message;
    }
  });

  const quote = (text) => "'" + String(text).replace(/'/g, "'\\\\''") + "'";

  $('request').addEventListener('submit', async (event) => {
    event.preventDefault();
    const operation = chosen();
    let path = operation.path;
    const query = new URLSearchParams();
    const headers = {};
    for (const input of $('parameters').querySelectorAll('[data-name]')) {
      const value = input.value.trim();
      if (input.dataset.in === 'path') path = path.replace('{' + input.dataset.name + '}', encodeURIComponent(value));
      else if (value === '') continue;
      else if (input.dataset.in === 'query') query.set(input.dataset.name, value);
      else if (input.dataset.in === 'header') headers[input.dataset.name] = value;
    }
    const url = api + path + (query.size ? '?' + query : '');
    const token = $('token').value.trim();
    const curl = ['curl', '-i', '-X', operation.method];
    if (operation.authenticated && token) {
      headers.Authorization = 'Basic ' + btoa(token + ':');
      curl.push('-u', quote(token + ':'));
    }
    let body;
    if (operation.body !== undefined) {
      body = $('body').value;
      headers['Content-Type'] = 'application/json';
    }
    for (const [name, value] of Object.entries(headers)) if (name !== 'Authorization') curl.push('-H', quote(name + ': ' + value));
    if (body !== undefined) curl.push('-d', quote(body.replace(/\\s*\\n\\s*/g, ' ')));
    curl.push(quote(url));
    $('curl').textContent = curl.join(' ');
    $('status').textContent = 'Sending ' + operation.method + ' ' + path + '...';
    try {
      const response = await fetch(url, { method: operation.method, headers, body });
      const text = await response.text();
      $('status').textContent = response.status + ' ' + response.statusText;
      $('status').dataset.status = String(response.status);
      const rows = $('headers').tBodies[0];
      rows.replaceChildren();
      for (const [name, value] of response.headers) {
        const row = rows.insertRow();
        const header = document.createElement('th');
        header.scope = 'row';
        header.textContent = name;
        row.append(header);
        row.insertCell().textContent = value;
      }
      let shown = text;
      try { shown = JSON.stringify(JSON.parse(text), null, 2); } catch {}
      $('response-body').textContent = shown || '(no body)';
    } catch (error) {
      $('status').textContent = 'The request failed: ' + error.message;
    }
  });
})();`;
