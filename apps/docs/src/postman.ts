// The Postman collection of one document: openapi-to-postmanv2 converts the bundle, and this module makes it run as
// is against a sandbox: the token and ids come from variables, every request pins its document's version and carries
// a test script checking the answer against the description, and the requests that remove access run last.
import { type DocumentName, deref, type JsonObject, type OpenApiDocument, type Operation, operationsOf, versions } from '@aggregation/openapi/contract';
import converter from 'openapi-to-postmanv2';
import type { RequestAuthDefinition } from 'postman-collection';

type Variable = { key: string; value: string; type?: string; description?: string | { content: string } };
type Header = { key: string; value: string; disabled?: boolean };
type Query = { key: string; value: string | null; disabled?: boolean };
type Url = { path?: string[]; query?: Query[]; variable?: Variable[] };
type Request = { method: string; url: Url; header?: Header[]; auth?: unknown; body?: { mode?: string; raw?: string } };
type Script = { listen: string; script: { type: string; exec: string[] } };
type Item = { name: string; item?: Item[]; request?: Request; event?: Script[] };
export type Collection = { info: JsonObject; item: Item[]; variable?: Variable[]; auth?: RequestAuthDefinition; event?: Script[] };
export type Environment = { name: string; values: { key: string; value: string; type: string; enabled: boolean }[] };

/** The variables a collection reads, with what each one holds. */
export const variables = {
  baseUrl: 'Where the API answers, for example http://127.0.0.1:3000 for `npm start`.',
  accessToken: 'A sandbox access token (`test_token_...`): POST /sandbox/enrollments gives one.',
  accountId: 'An account of that enrollment that can pay (its links have `payments`).',
  transactionId: 'A transaction of that account.',
  paymentId: 'A payment made from that account.',
  enrollmentId: 'The enrollment of the access token.',
  applicationKey: 'The key of the application POST /sandbox/applications made; enrollments are made with it.',
  deliveryId: 'A webhook delivery of that application.',
  applicationId: "That application's public id, which the enrollment widget's sessions name.",
  sessionId: 'An enrollment widget session of that application.',
  connectAccountId: 'An account that session offers to grant.',
  connectToken: 'The connect_token of an MFA challenge of that enrollment.',
} as const;

const DEFAULT_BASE_URL = 'http://127.0.0.1:3000';

/** `account_id` to `accountId`: path parameters are filled from the collection's variables. */
const variableOf = (parameter: string) => parameter.replace(/_([a-z])/g, (_, letter: string) => letter.toUpperCase());

function convert(bundle: OpenApiDocument): Promise<Collection> {
  return new Promise((resolve, reject) => {
    converter.convert(
      { type: 'json', data: JSON.stringify(bundle) },
      { folderStrategy: 'Tags', requestParametersResolution: 'Example', exampleParametersResolution: 'Example' },
      (error, result) => {
        if (error) reject(new Error(`openapi-to-postmanv2: ${error.message}`));
        else if (!result?.result || !result.output?.[0]) reject(new Error(`openapi-to-postmanv2: ${result?.reason}`));
        else resolve(result.output[0].data as Collection);
      },
    );
  });
}

// OpenAPI's numeric formats are no JSON Schema formats: Postman's validator refuses them (the type still applies).
const OPENAPI_ONLY_FORMATS = new Set(['int32', 'int64', 'float', 'double']);

/** A schema with every `$ref` replaced by its target, so that a test script can carry it alone. */
export function inlineSchema(bundle: OpenApiDocument, schema: unknown, trail: string[] = []): unknown {
  if (Array.isArray(schema)) return schema.map((entry) => inlineSchema(bundle, entry, trail));
  if (typeof schema !== 'object' || schema === null) return schema;
  const ref = (schema as JsonObject).$ref;
  if (typeof ref === 'string') {
    if (trail.includes(ref)) throw new Error(`recursive schema ${ref} cannot be inlined`);
    return inlineSchema(bundle, deref(bundle, schema), [...trail, ref]);
  }
  const inlined: JsonObject = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === 'format' && OPENAPI_ONLY_FORMATS.has(value as string)) continue;
    inlined[key] = inlineSchema(bundle, value, trail);
  }
  return inlined;
}

/** The operation's success answers: status to the JSON schema of its body (null without a body). */
function successSchemas(bundle: OpenApiDocument, operation: Operation): Record<string, unknown> {
  const answers: Record<string, unknown> = {};
  for (const { status, content } of operation.responses) {
    if (!status.startsWith('2')) continue;
    const schema = content.find((media) => media.mediaType === 'application/json')?.schema;
    answers[status] = schema === undefined ? null : inlineSchema(bundle, schema);
  }
  return answers;
}

/** The test script of one request: a documented success status, a body matching its schema, the version served. */
export function testScript(bundle: OpenApiDocument, document: DocumentName, operation: Operation): string[] {
  const answers = successSchemas(bundle, operation);
  const version = (versions as readonly string[]).includes(document) ? document : undefined;
  return [
    `// ${operation.operationId}: checked against the description (${document}).`,
    `const answers = ${JSON.stringify(answers)};`,
    `pm.test('answers a documented success status (' + Object.keys(answers).join(', ') + ')', () => {`,
    `  pm.expect(Object.keys(answers)).to.include(String(pm.response.code));`,
    `});`,
    `const schema = answers[String(pm.response.code)];`,
    `if (schema) {`,
    `  pm.test('the body matches the description', () => pm.response.to.have.jsonSchema(schema));`,
    `}`,
    ...(version ? [`pm.test('served by version ${version}', () => pm.expect(pm.response.headers.get('Service-Version')).to.eql('${version}'));`] : []),
  ];
}

const templateOf = (path: string[] = []) => `/${path.map((segment) => (segment.startsWith(':') ? `{${segment.slice(1)}}` : segment)).join('/')}`;

/**
 * Removing access (DELETE) or ending the enrollment's data (disconnect, close) would break every later request; a
 * reconnect needs the disconnect before it.
 */
function endsTheData(operation: Operation): boolean {
  return operation.method === 'delete' || /disconnect|reconnect|close/i.test(operation.operationId);
}

/** Making a sandbox enrollment fills the environment in, so that every other request can run next. */
const keepEnrollment = [
  `if (pm.response.code === 201) {`,
  `  const enrollment = pm.response.json();`,
  `  const payer = enrollment.accounts.find((account) => account.links.payments) || enrollment.accounts[0];`,
  `  pm.environment.set('accessToken', enrollment.access_token);`,
  `  pm.environment.set('enrollmentId', enrollment.enrollment.id);`,
  `  if (payer) pm.environment.set('accountId', payer.id);`,
  `}`,
];

/** What a run keeps for the requests after it: the payment made, a transaction listed. */
const keepIds: Record<string, string[]> = {
  createSandboxApplication: [
    `if (pm.response.code === 201) {`,
    `  pm.environment.set('applicationKey', pm.response.json().key);`,
    `  pm.environment.set('applicationId', pm.response.json().application.id);`,
    `}`,
  ],
  createConnectSession: [`if (pm.response.code === 201) pm.environment.set('sessionId', pm.response.json().id);`],
  submitConnectMfa: [
    `const offered = pm.response.code === 200 ? pm.response.json().accounts : null;`,
    `if (offered) pm.environment.set('connectAccountId', offered[0].id);`,
  ],
  createSandboxEnrollment: keepEnrollment,
  listSandboxWebhookDeliveries: [
    `const [latest] = pm.response.code === 200 ? pm.response.json() : [];`,
    `if (latest) pm.environment.set('deliveryId', latest.id);`,
  ],
  createPayment: [`if (pm.response.code === 202) pm.environment.set('paymentId', pm.response.json().id);`],
  listTransactions: [
    `const [first] = pm.response.code === 200 ? pm.response.json() : [];`,
    `if (first && !pm.environment.get('transactionId')) pm.environment.set('transactionId', first.id);`,
  ],
};

function prepare(item: Item, operation: Operation, bundle: OpenApiDocument, document: DocumentName): void {
  const request = item.request!;
  for (const variable of request.url.variable ?? []) variable.value = `{{${variableOf(variable.key)}}}`;
  for (const query of request.url.query ?? []) {
    // Cursors and date filters from the examples would name data this sandbox does not have.
    if (query.key !== 'count') query.disabled = true;
    // A stream (the request log) ends only when asked to: a collection run must not wait forever.
    if (query.key === 'timeout_seconds') Object.assign(query, { disabled: false, value: '1' });
  }
  for (const header of request.header ?? []) {
    if (header.key === 'Service-Version') header.value = (versions as readonly string[]).includes(document) ? document : header.value;
    if (header.key === 'Idempotency-Key') header.value = '{{$guid}}';
  }
  if (operation.operationId === 'createSandboxApplication') {
    // On the oldest version, so that upgrading it and rolling the upgrade back both succeed in one run.
    request.body = { mode: 'raw', raw: JSON.stringify({ default_version: versions[versions.length - 1] }, null, 2) };
  }
  if (operation.operationId === 'createSandboxEnrollment') {
    // Enrolled into that application: its key is the Basic username (without one, the default application).
    request.auth = {
      type: 'basic',
      basic: [
        { key: 'username', value: '{{applicationKey}}' },
        { key: 'password', value: '' },
      ],
    };
  }
  const body = widgetBodies[operation.operationId];
  if (body) request.body = { mode: 'raw', raw: JSON.stringify({ application_id: '{{applicationId}}', ...body }, null, 2) };
  const exec = [...testScript(bundle, document, operation), ...(keepIds[operation.operationId] ?? [])];
  item.event = [{ listen: 'test', script: { type: 'text/javascript', exec } }];
  const before = beforeRequest[operation.operationId];
  if (before) item.event.push({ listen: 'prerequest', script: { type: 'text/javascript', exec: before } });
}

/**
 * The enrollment widget's steps, one session walked through in order: a user whose sign-in asks for a one-time code,
 * then the accounts to grant. The application is the one the collection made.
 */
const widgetBodies: Record<string, Record<string, unknown>> = {
  createConnectSession: { select_account: 'multiple', nonce: 'postman' },
  submitConnectCredentials: { institution_id: 'chase', username: 'mfa.device', password: 'password' },
  submitConnectMfa: { code: '1234' },
  selectConnectAccounts: { account_ids: ['{{connectAccountId}}'] },
  approveConnectSession: {},
};

/** Before a request that needs an MFA challenge of the enrollment: one, from a payment whose memo asks for it. */
const makeChallenge = (then: string[]) => [
  `pm.sendRequest({`,
  `  url: pm.environment.get('baseUrl') + '/accounts/' + pm.environment.get('accountId') + '/payments',`,
  `  method: 'POST',`,
  `  header: { 'Content-Type': 'application/json', 'Idempotency-Key': pm.variables.replaceIn('{{$guid}}') },`,
  `  auth: { type: 'basic', basic: [{ key: 'username', value: pm.environment.get('accessToken') }, { key: 'password', value: '' }] },`,
  `  body: { mode: 'raw', raw: JSON.stringify({ amount: '1.00', memo: 'mfa', payee: { scheme: 'zelle', address: 'postman@example.com', name: 'Postman', type: 'person' } }) },`,
  `}, (error, challenge) => {`,
  `  if (error) throw error;`,
  `  pm.environment.set('connectToken', challenge.json().connect_token);`,
  ...then.map((line) => `  ${line}`),
  `});`,
];

const beforeRequest: Record<string, string[]> = {
  getSandboxConnectToken: makeChallenge([]),
  // A session of its own, approving a challenge of its own.
  approveConnectSession: makeChallenge([
    `pm.sendRequest({`,
    `  url: pm.environment.get('baseUrl') + '/sandbox/connect/sessions',`,
    `  method: 'POST',`,
    `  header: { 'Content-Type': 'application/json' },`,
    `  body: { mode: 'raw', raw: JSON.stringify({ application_id: pm.environment.get('applicationId'), connect_token: pm.environment.get('connectToken') }) },`,
    `}, (failed, session) => {`,
    `  if (failed) throw failed;`,
    `  pm.environment.set('sessionId', session.json().id);`,
    `});`,
  ]),
};

/**
 * Operations whose answers the requests after them need, in the order they come first in their folder (and their
 * folders first): the application and its enrollment, the widget's session and its steps, the challenge before its
 * approval.
 */
const firstOperations = [
  'createSandboxApplication',
  'createSandboxEnrollment',
  'getSandboxConnectToken',
  'approveSandboxConnectToken',
  'createConnectSession',
  'submitConnectCredentials',
  'submitConnectMfa',
  'selectConnectAccounts',
  'approveConnectSession',
];

function rankOf(item: Item, operationIdOf: WeakMap<Item, string>): number {
  if (item.item) return Math.min(...item.item.map((child) => rankOf(child, operationIdOf)));
  const at = firstOperations.indexOf(operationIdOf.get(item) ?? '');
  return at < 0 ? firstOperations.length : at;
}

function firstThingsFirst(folder: Item, operationIdOf: WeakMap<Item, string>): Item {
  if (!folder.item) return folder;
  return { ...folder, item: [...folder.item].sort((a, b) => rankOf(a, operationIdOf) - rankOf(b, operationIdOf)) };
}

/** The collection of a document, ready to run against the sandbox. */
export async function buildCollection(bundle: OpenApiDocument, document: DocumentName): Promise<Collection> {
  const collection = await convert(bundle);
  const operations = new Map(operationsOf(bundle).map((operation) => [`${operation.method.toUpperCase()} ${operation.path}`, operation]));
  const last: Item[] = [];
  const operationIdOf = new WeakMap<Item, string>();
  const keep = (items: Item[]): Item[] =>
    items.flatMap((item) => {
      if (item.item) return [{ ...item, item: keep(item.item) }];
      const key = `${item.request!.method} ${templateOf(item.request!.url.path)}`;
      const operation = operations.get(key);
      if (!operation) throw new Error(`${item.name}: no operation of ${document} matches ${key}`);
      operations.delete(key);
      operationIdOf.set(item, operation.operationId);
      prepare(item, operation, bundle, document);
      if (!endsTheData(operation)) return [item];
      last.push(item);
      return [];
    });
  collection.item = keep(collection.item)
    .filter((folder) => !folder.item || folder.item.length > 0)
    .map((folder) => firstThingsFirst(folder, operationIdOf))
    .sort((a, b) => rankOf(a, operationIdOf) - rankOf(b, operationIdOf));
  if (operations.size > 0) throw new Error(`${document}: operations missing from the collection: ${[...operations.keys()].join(', ')}`);
  // DELETE /accounts/{id} before DELETE /accounts, which revokes the token; the reconnect after the disconnect.
  const reconnects = (item: Item) => /reconnect/i.test(operationIdOf.get(item) ?? '');
  last.sort((a, b) =>
    reconnects(a) !== reconnects(b) ? (reconnects(a) ? 1 : -1) : (a.request!.url.path?.length ?? 0) > (b.request!.url.path?.length ?? 0) ? -1 : 1,
  );
  if (last.length > 0) collection.item.push({ name: 'Run last: these end access to the data', item: last });
  collection.auth = {
    type: 'basic',
    basic: [
      { key: 'username', value: '{{accessToken}}' },
      { key: 'password', value: '' },
    ],
  };
  collection.variable = [{ key: 'baseUrl', value: DEFAULT_BASE_URL, type: 'string' }];
  return collection;
}

/** The environment that goes with a collection: every variable it reads, the token and ids still to fill in. */
export function buildEnvironment(document: DocumentName): Environment {
  return {
    name: `Sandbox (${document})`,
    values: Object.keys(variables).map((key) => ({
      key,
      value: key === 'baseUrl' ? DEFAULT_BASE_URL : '',
      type: key === 'accessToken' ? 'secret' : 'default',
      enabled: true,
    })),
  };
}
