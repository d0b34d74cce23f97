// `aggregation-mcp` over stdio, started and driven by the official TypeScript SDK's client against the sandbox server:
// the tools it lists (the description's reading ones), every reading tool called and its answer compared with the
// API's own, a history paged through, each documented failure provoked with the sandbox's test users, bad input, and
// the token kept out of every result, error and log line.
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { dirname, join } from 'node:path';
import { loadBundle } from '@aggregation/openapi/contract';
import { errorCodesOf } from '@aggregation/openapi/error-codes';
import { machineNode, skipWhenMissing } from '@aggregation/test-support';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { expectedTools, schemaDifferences } from './helpers/expected.ts';
import { assertStructured, assertToolError, type Connected, connectStdio, requiredArguments, textOf } from './helpers/mcp.ts';
import { type Enrollment, type Sandbox, startSandbox } from './helpers/sandbox.ts';

const codes = errorCodesOf(loadBundle('2020-10-12'));
/** The Errors guide's advice for a code, from the one list the guide is made from. */
const adviceFor = (code: string) => {
  const entry = codes.find((candidate) => candidate.code === code || candidate.code === `${code}.<reason>`);
  assert.ok(entry, `${code} is not declared`);
  return `What to do: ${entry.action}`;
};

let sandbox: Sandbox;
let healthy: Enrollment;
let mcp: Connected;
/** Every server of the file, so that the token check reads all their logs. */
const servers: Connected[] = [];
const tokens: string[] = [];
/** Every result and error message the tests saw, as JSON. */
const seen: string[] = [];

async function server(token: string | undefined, args: string[] = [], baseUrl?: string, node?: string): Promise<Connected> {
  const connected = await connectStdio({ token, baseUrl: baseUrl ?? sandbox.url, args, ...(node ? { node } : {}) });
  servers.push(connected);
  if (token) tokens.push(token);
  const call = connected.call;
  connected.call = async (name, args) => {
    try {
      const result = await call(name, args);
      seen.push(JSON.stringify(result));
      return result;
    } catch (error) {
      seen.push(String(error));
      throw error;
    }
  };
  return connected;
}

/** A port nothing listens on: one the system gave out and that was closed again. */
async function closedPort(): Promise<number> {
  const listener = createServer().listen(0, '127.0.0.1');
  await once(listener, 'listening');
  const { port } = listener.address() as AddressInfo;
  await new Promise((resolve) => listener.close(resolve));
  return port;
}

const checking = () => healthy.accounts.find((account) => account.subtype === 'checking')!;

beforeAll(async () => {
  sandbox = await startSandbox();
  healthy = await sandbox.enroll('username');
  mcp = await server(healthy.token);
});
afterAll(async () => {
  for (const connected of servers) await connected.close();
  await sandbox?.close();
});

describe('tools/list', () => {
  it("lists the description's reading tools, with its schemas and the hints of their methods", async () => {
    const expected = (await expectedTools('2020-10-12')).filter((tool) => ['get', 'head', 'options'].includes(tool.method));
    assert.deepEqual(
      [...mcp.tools.keys()],
      expected.map((tool) => tool.name),
    );
    for (const want of expected) {
      const tool = mcp.tools.get(want.name)!;
      assert.deepEqual(schemaDifferences(tool.inputSchema, want.inputSchema), [], `${tool.name}: inputSchema`);
      const output = structuredClone(tool.outputSchema) as any;
      if (output?.properties?.next_from_id) delete output.properties.next_from_id.description;
      assert.deepEqual(schemaDifferences(output, want.outputSchema), [], `${tool.name}: outputSchema`);
      assert.deepEqual(tool.annotations, { title: want.summary, readOnlyHint: true, destructiveHint: false, idempotentHint: true });
    }
  });

  it('says in its instructions that it is read-only', () => {
    assert.match(mcp.client.getInstructions() ?? '', /Read-only.*--allow-writes/);
    assert.equal(mcp.client.getServerVersion()?.name, 'aggregation-mcp');
  });
});

describe('every reading tool', () => {
  it("answers with structuredContent that validates against its outputSchema and is the API's own answer", async () => {
    const ids = await sandbox.readingIds(healthy);
    const called: string[] = [];
    for (const [name, tool] of mcp.tools) {
      const result = await mcp.call(name, requiredArguments(tool, ids));
      const structured = assertStructured(tool, result);
      const want = (await expectedTools('2020-10-12')).find((candidate) => candidate.name === name)!;
      const path = want.path.replace(/\{(\w+)\}/g, (_match, argument: string) => ids[argument]!);
      const query = want.answer === 'page' ? '?count=100' : '';
      const api = await sandbox.api(healthy.token, `${path}${query}`, {
        method: want.method.toUpperCase(),
        headers: { 'service-version': '2020-10-12' },
      });
      assert.equal(api.status, 200, `${name}: ${JSON.stringify(api.body)}`);
      if (want.answer === 'object') assert.deepEqual(structured, api.body, name);
      else assert.deepEqual(structured.data, api.body, name);
      called.push(name);
    }
    assert.deepEqual(called.sort(), [...mcp.tools.keys()].sort());
    assert.equal(called.length, 11);
  });

  it('renders a short text of the same data beside it', async () => {
    const result = await mcp.call('list_accounts');
    const text = textOf(result);
    assert.match(text, /^List accounts: 3 items\./);
    for (const account of healthy.accounts) assert.ok(text.includes(account.id) && text.includes(account.name), text);
    assert.ok(!text.includes('http://'), 'the text leaves the links out');
  });
});

describe('list_transactions', () => {
  it('pages through a history with count and from_id, and says where the next page starts', async () => {
    const history = await sandbox.enroll('history.250');
    const account = history.accounts[0]!;
    const reader = await server(history.token);
    const all = (await sandbox.api(history.token, `/accounts/${account.id}/transactions`)).body as { id: string }[];
    assert.ok(all.length > 200, `${all.length} transactions`);
    const pages: string[][] = [];
    let fromId: string | undefined;
    do {
      const result = await reader.call('list_transactions', { account_id: account.id, count: 100, ...(fromId ? { from_id: fromId } : {}) });
      const page = assertStructured(reader.tools.get('list_transactions')!, result);
      pages.push(page.data.map((transaction: { id: string }) => transaction.id));
      fromId = page.next_from_id ?? undefined;
      if (fromId) {
        assert.equal(fromId, page.data.at(-1).id);
        assert.match(textOf(result), new RegExp(`call again with from_id ${fromId}`));
      } else assert.match(textOf(result), /last page/);
    } while (fromId);
    assert.deepEqual(
      pages.map((page) => page.length),
      [100, 100, all.length - 200],
    );
    assert.deepEqual(
      pages.flat(),
      all.map((transaction) => transaction.id),
    );
  });

  it('gives a page of 100 when count is not given, and a full last page says it is the last', async () => {
    const account = checking();
    const all = (await sandbox.api(healthy.token, `/accounts/${account.id}/transactions`)).body as { id: string }[];
    const first = assertStructured(mcp.tools.get('list_transactions')!, await mcp.call('list_transactions', { account_id: account.id }));
    assert.equal(first.data.length, Math.min(100, all.length));
    const exact = assertStructured(
      mcp.tools.get('list_transactions')!,
      await mcp.call('list_transactions', { account_id: account.id, count: all.length }),
    );
    assert.equal(exact.data.length, all.length);
    assert.equal(exact.next_from_id, null);
  });
});

describe("the sandbox's documented failures", () => {
  const cases: { user: string; tool: string; status: number; code: RegExp; declared: string; args?: string[]; account?: (e: Enrollment) => string }[] =
    [
      {
        user: 'closed',
        tool: 'get_account',
        status: 410,
        code: /account\.closed/,
        declared: 'account.closed',
        account: (e) => e.accounts.find((a) => a.status === 'closed')!.id,
      },
      { user: 'disconnected', tool: 'get_account_balances', status: 404, code: /enrollment\.disconnected/, declared: 'enrollment.disconnected' },
      { user: 'institution.down', tool: 'get_account_balances', status: 502, code: /bad_gateway/, declared: 'bad_gateway' },
      { user: 'rate_limited.5', tool: 'list_accounts', status: 429, code: /rate_limited/, declared: 'rate_limited' },
      {
        user: 'timeout.first_transactions',
        tool: 'list_transactions',
        status: 504,
        code: /gateway_timeout/,
        declared: 'gateway_timeout',
        args: ['--max-retries', '0'],
      },
    ];
  for (const { user, tool, status, code, declared, args, account } of cases) {
    it(`${user}: ${tool} answers ${status} as a tool error with the code and what to do`, async () => {
      const enrollment = await sandbox.enroll(user);
      const connected = await server(enrollment.token, args);
      const accountId = account ? account(enrollment) : enrollment.accounts[0]!.id;
      const result = await connected.call(tool, tool === 'list_accounts' ? {} : { account_id: accountId });
      const text = assertToolError(result, new RegExp(`^${status} ${code.source}`), adviceFor(declared), /Request id: req_/);
      if (status === 429 || status === 504) assert.match(text, /Retry-After: \d+ s\./);
      // The server keeps serving its client.
      assert.notEqual((await connected.call('list_institutions')).isError, true);
    });
  }

  it('timeout.first_transactions: with the default retries, the retry after Retry-After is served', async () => {
    const enrollment = await sandbox.enroll('timeout.first_transactions');
    const connected = await server(enrollment.token);
    assertStructured(
      connected.tools.get('list_transactions')!,
      await connected.call('list_transactions', { account_id: enrollment.accounts[0]!.id, count: 5 }),
    );
  });

  it('unknown ids answer 404 not_found', async () => {
    const account = checking().id;
    for (const [tool, args] of [
      ['get_account', { account_id: 'acc_missing' }],
      ['get_transaction', { account_id: account, transaction_id: 'txn_missing' }],
      ['get_payment', { account_id: account, payment_id: 'pay_missing' }],
    ] as const) {
      assertToolError(await mcp.call(tool, args), /^404 not_found: /, adviceFor('not_found'));
    }
  });

  it('a wrong token answers 403 forbidden', async () => {
    const wrong = await server('test_token_notissued0000000000');
    assertToolError(await wrong.call('list_accounts'), /^403 forbidden: /, adviceFor('forbidden'));
  });
});

describe('bad input gets a clear answer, and the server keeps serving', () => {
  it('an unknown tool is a protocol error that names it', async () => {
    await assert.rejects(mcp.call('transfer_everything'), (error: unknown) => {
      assert.ok(error instanceof McpError && error.code === -32602, String(error));
      assert.match(error.message, /Unknown tool: transfer_everything/);
      return true;
    });
  });

  it('a tool that changes data is unknown without --allow-writes, and the error says how to get it', async () => {
    await assert.rejects(mcp.call('create_payment', {}), /Unknown tool: create_payment: .*--allow-writes/);
    await assert.rejects(mcp.call('delete_accounts'), /--allow-writes/);
  });

  it('arguments that break the inputSchema are a tool error naming the problem', async () => {
    const account = checking().id;
    const cases: [string, Record<string, unknown>, RegExp][] = [
      ['get_account', {}, /must have required property 'account_id'/],
      ['list_transactions', { account_id: account, count: 0 }, /count: must be >= 1/],
      ['list_transactions', { account_id: account, count: 'ten' }, /count: must be integer/],
      ['list_transactions', { account_id: account, start_date: 'yesterday' }, /start_date: must match format "date"/],
      ['get_account', { account_id: account, verbose: true }, /must NOT have additional properties \(verbose\)/],
      ['get_account', JSON.parse(`{"account_id": "${account}", "constructor": {"admin": true}}`), /additional properties \(constructor\)/],
      ['get_account', { account_id: '' }, /account_id must not be empty/],
    ];
    for (const [tool, args, problem] of cases) {
      assertToolError(await mcp.call(tool, args), new RegExp(`^Invalid arguments for ${tool}: `), problem);
    }
    assertStructured(mcp.tools.get('get_account')!, await mcp.call('get_account', { account_id: account }));
  });

  it('without a token, the tools are listed and every call says how to give one', async () => {
    const tokenless = await server(undefined);
    assert.equal(tokenless.tools.size, 11);
    assertToolError(await tokenless.call('list_accounts'), /^No access token: .*AGGREGATION_TOKEN/);
    await assert.rejects(tokenless.client.getPrompt({ name: 'summarize_spending', arguments: { account_id: 'acc_1' } }), /No access token/);
    assert.match(tokenless.log(), /no access token/);
  });

  it('an API that does not answer is a tool error that names the address, and the next call is served', async () => {
    const closed = await closedPort();
    const silent = await server(healthy.token, ['--max-retries', '0'], `http://127.0.0.1:${closed}`);
    for (let attempt = 0; attempt < 2; attempt++) {
      assertToolError(await silent.call('list_accounts'), `No answer from the API at http://127.0.0.1:${closed}: `, /connection refused/, /--base-url/);
    }
  });

  it('an API that answers off the description is a tool error, not content the client would refuse', async () => {
    const impostor = createServer((req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(req.url === '/accounts' ? JSON.stringify([{ id: 5, name: 'Checking' }]) : '{"unexpected": true}');
    }).listen(0, '127.0.0.1');
    await once(impostor, 'listening');
    try {
      const other = await server(healthy.token, [], `http://127.0.0.1:${(impostor.address() as AddressInfo).port}`);
      assertToolError(await other.call('list_accounts'), /^The API's answer \(200\) does not match the description/, /data\.0/, /--base-url/);
      assertToolError(await other.call('get_account', { account_id: 'acc_1' }), /does not match the description/);
    } finally {
      impostor.close();
    }
  });

  it('a malformed line on stdin is skipped, and the session goes on', async () => {
    const transport = (mcp.client as unknown as { _transport: { _process: { stdin: NodeJS.WritableStream } } })._transport;
    transport._process.stdin.write('{"jsonrpc": "2.0", "id": 99, "method": \n');
    assert.notEqual((await mcp.call('list_institutions')).isError, true);
  });
});

describe('resources', () => {
  const docsDist = dirname(createRequire(import.meta.url).resolve('@aggregation/docs/dist/llms.txt'));

  it('are the pages llms.txt links (guides and every operation), with llms.txt itself', async () => {
    const linked = [...readFileSync(join(docsDist, 'llms.txt'), 'utf8').matchAll(/\]\(([^)]+\.md)\)/g)].map((match) => match[1]);
    const { resources } = await mcp.client.listResources();
    assert.deepEqual(
      resources.map((resource) => resource.uri),
      ['aggregation://docs/llms.txt', ...linked.map((path) => `aggregation://docs/${path}`)],
    );
    assert.ok(linked.includes('guides/errors.md') && linked.includes('reference/2020-10-12/listAccounts.md'));
    const errors = resources.find((resource) => resource.uri.endsWith('guides/errors.md'))!;
    assert.equal(errors.title, 'Errors');
    assert.equal(errors.mimeType, 'text/markdown');
  });

  it("read as the docs' build wrote them; an unknown one is an error", async () => {
    for (const path of ['guides/errors.md', 'reference/2020-10-12/createPayment.md', 'llms.txt']) {
      const { contents } = await mcp.client.readResource({ uri: `aggregation://docs/${path}` });
      assert.equal((contents[0] as { text: string }).text, readFileSync(join(docsDist, path), 'utf8'), path);
    }
    await assert.rejects(mcp.client.readResource({ uri: 'aggregation://docs/../package.json' }), /Resource not found/);
  });
});

describe('the prompt summarize_spending', () => {
  it("sums an account's transactions of a period by category, as the API lists them", async () => {
    const account = checking();
    const end = new Date().toISOString().slice(0, 10);
    const start = new Date(Date.now() - 20 * 86_400_000).toISOString().slice(0, 10);
    const { prompts } = await mcp.client.listPrompts();
    assert.deepEqual(
      prompts.map((prompt) => prompt.name),
      ['summarize_spending'],
    );
    const prompt = await mcp.client.getPrompt({ name: 'summarize_spending', arguments: { account_id: account.id, start_date: start, end_date: end } });
    const text = (prompt.messages[0]!.content as { text: string }).text;
    const listed = (await sandbox.api(healthy.token, `/accounts/${account.id}/transactions?start_date=${start}&end_date=${end}`)).body as {
      amount: string;
      details: { category: string | null };
    }[];
    assert.ok(listed.length > 10);
    // The sums worked out here on their own: cents as numbers, money out of a deposit account is negative.
    const spent = new Map<string, number>();
    for (const transaction of listed) {
      const cents = Math.round(Number(transaction.amount) * 100);
      const category = transaction.details.category ?? 'uncategorized';
      if (cents < 0) spent.set(category, (spent.get(category) ?? 0) - cents);
    }
    for (const [category, cents] of spent) {
      assert.match(text, new RegExp(`\\| ${category} \\| ${(cents / 100).toFixed(2)} \\|`), `${category}\n${text}`);
    }
    assert.match(text, new RegExp(`Its ${listed.length} transactions`));
  });

  it('refuses arguments it cannot use', async () => {
    await assert.rejects(
      mcp.client.getPrompt({ name: 'summarize_spending', arguments: { account_id: checking().id, start_date: '2026-02-30' } }),
      /start_date must be a date/,
    );
    await assert.rejects(mcp.client.getPrompt({ name: 'summarize_spending', arguments: { account_id: 'acc_missing' } }), /404 not_found/);
  });
});

describe('--version 2019-07-01', () => {
  it("makes the tools of that version's description, and answers in its shapes", async () => {
    const older = await server(healthy.token, ['--version', '2019-07-01']);
    const expected = (await expectedTools('2019-07-01')).filter((tool) => ['get', 'options'].includes(tool.method));
    assert.deepEqual(
      [...older.tools.keys()],
      expected.map((tool) => tool.name),
    );
    const balances = assertStructured(
      older.tools.get('get_account_balances')!,
      await older.call('get_account_balances', { account_id: checking().id }),
    );
    assert.ok(Array.isArray(balances.data) && balances.data.some((balance: { type: string }) => balance.type === 'ledger'));
    const accounts = assertStructured(older.tools.get('list_accounts')!, await older.call('list_accounts'));
    assert.equal(typeof accounts.data[0].institution, 'string');
  });
});

const node20 = machineNode();
describe.skipIf(skipWhenMissing('the server on the machine’s own Node.js', node20 ? false : 'no node on PATH outside node_modules'))(
  'on the machine’s own Node.js',
  () => {
    it('starts and answers', async () => {
      const connected = await server(healthy.token, [], undefined, node20);
      assert.equal(connected.tools.size, 11);
      assertStructured(connected.tools.get('list_accounts')!, await connected.call('list_accounts'));
    });
  },
);

describe('the token', () => {
  it('is masked where the API or a caller echoes it', async () => {
    const echoed = await mcp.call('get_account', { account_id: healthy.token });
    assertToolError(echoed, /^404 not_found: .*\[redacted token\]/);
    await assert.rejects(mcp.call(healthy.token), /Unknown tool: \[redacted token\]/);
  });

  it('never appears in a result, an error or a log line', () => {
    assert.ok(seen.length > 40, `${seen.length} results seen`);
    const logs = servers.map((connected) => connected.log()).join('\n');
    assert.match(logs, /aggregation-mcp \d+\.\d+\.\d+: API 2020-10-12 at http:\/\/127\.0\.0\.1:\d+, read-only, 11 tools; stdio/);
    assert.match(logs, /get_account: 404 not_found/);
    for (const token of tokens) {
      for (const text of [...seen, logs]) assert.ok(!text.includes(token), `the token ${token.slice(0, 14)}... appears in: ${text.slice(0, 300)}`);
    }
  });
});
