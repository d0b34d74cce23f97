// The MCP Inspector's command-line mode (`@modelcontextprotocol/inspector --cli`), a client no one here wrote, against
// `aggregation-mcp`: over stdio (the Inspector starts the server) it lists the tools and checks their schemas'
// portability (`--strict`); over Streamable HTTP it calls every reading tool, pages through a history, provokes
// failures and, with --allow-writes, pays through MFA.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { stopsWithThisProcess } from '@aggregation/test-support';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { HANG_GUARD_MS } from '../../../vitest.shared.ts';
import { bin, type HttpServer, requiredArguments, startHttp } from './helpers/mcp.ts';
import { type Enrollment, type Sandbox, startSandbox } from './helpers/sandbox.ts';

const inspectorDir = dirname(createRequire(import.meta.url).resolve('@modelcontextprotocol/inspector/package.json'));
const inspector = join(
  inspectorDir,
  (JSON.parse(readFileSync(join(inspectorDir, 'package.json'), 'utf8')) as { bin: Record<string, string> }).bin['mcp-inspector']!,
);
// The Inspector keeps a catalog and secrets under the home directory: a home of the test's own.
const home = mkdtempSync(join(tmpdir(), 'aggregation-mcp-inspector-'));
const configFile = join(home, 'servers.json');

type Run = { code: number | null; stdout: string; stderr: string; json: any };
type Entry = { command: string; args: string[]; env: Record<string, string> } | { type: 'streamable-http'; url: string };

/**
 * The servers the Inspector reaches, as a session config (`--config`): each with no limit on connecting (the Inspector's
 * default is 15 s) and the tests' hang guard on each request (the SDK's default is 60 s), which a loaded machine can
 * exceed.
 */
const servers = new Map<string, Entry>();
function writeConfig(): void {
  const entries = Object.fromEntries([...servers].map(([name, entry]) => [name, { ...entry, connectionTimeout: 0, requestTimeout: HANG_GUARD_MS }]));
  writeFileSync(configFile, JSON.stringify({ mcpServers: entries }, null, 2));
}
const httpEntry = (name: string, server: HttpServer): string => {
  servers.set(name, { type: 'streamable-http', url: server.url });
  writeConfig();
  return name;
};

/** `mcp-inspector --cli -q --format json --config <servers> <args>`: its exit code and the JSON it printed. */
function inspect(args: string[]): Promise<Run> {
  const child = stopsWithThisProcess(
    spawn(process.execPath, [inspector, '--cli', '-q', '--format', 'json', '--config', configFile, ...args], {
      env: { HOME: home, PATH: process.env.PATH ?? '' },
    }),
  );
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr, json: stdout.trim() ? JSON.parse(stdout) : undefined }));
  });
}

let sandbox: Sandbox;
let enrollment: Enrollment;
let server: HttpServer;

/** A tool call through the Inspector, on the server its config names `to` (default: the read-only one, over HTTP). */
const call = (tool: string, args: Record<string, unknown> = {}, to = 'read') =>
  inspect(['--server', to, '--method', 'tools/call', '--tool-name', tool, '--tool-args-json', JSON.stringify(args)]);

beforeAll(async () => {
  sandbox = await startSandbox();
  enrollment = await sandbox.enroll('username');
  server = await startHttp({ token: enrollment.token, baseUrl: sandbox.url });
  httpEntry('read', server);
  servers.set('stdio', { command: process.execPath, args: [bin], env: { AGGREGATION_TOKEN: enrollment.token, AGGREGATION_BASE_URL: sandbox.url } });
  writeConfig();
});
afterAll(async () => {
  await server?.stop();
  await sandbox?.close();
  rmSync(home, { recursive: true, force: true });
});

describe('the MCP Inspector, command-line mode', () => {
  it('starts the server over stdio and lists its tools, with no schema that it finds unportable', async () => {
    const run = await inspect(['--server', 'stdio', '--method', 'tools/list', '--strict']);
    assert.equal(run.code, 0, run.stderr);
    const names = run.json.result.tools.map((tool: { name: string }) => tool.name);
    assert.equal(names.length, 11);
    assert.ok(names.includes('list_accounts') && names.includes('list_transactions') && !names.includes('create_payment'));
  });

  it('calls every reading tool', async () => {
    const ids = await sandbox.readingIds(enrollment);
    const listed = (await inspect(['--server', 'read', '--method', 'tools/list'])).json.result.tools as {
      name: string;
      inputSchema: { required?: string[] };
    }[];
    // One after another: each is an Inspector process of its own.
    const runs: Run[] = [];
    for (const tool of listed) runs.push(await call(tool.name, requiredArguments(tool, ids)));
    for (const [index, run] of runs.entries()) {
      assert.equal(run.code, 0, `${listed[index]!.name}: ${run.stderr}`);
      assert.equal(run.json.result.isError, undefined, listed[index]!.name);
      assert.ok(run.json.result.structuredContent, listed[index]!.name);
    }
    assert.equal(runs.length, 11);
  });

  it('pages through a history', async () => {
    const history = await sandbox.enroll('history.120');
    const reader = await startHttp({ token: history.token, baseUrl: sandbox.url });
    try {
      const account = history.accounts[0]!.id;
      const seen: string[] = [];
      let fromId: string | null = null;
      do {
        const run: Run = await call(
          'list_transactions',
          { account_id: account, count: 50, ...(fromId ? { from_id: fromId } : {}) },
          httpEntry('history', reader),
        );
        assert.equal(run.code, 0, run.stderr);
        seen.push(...run.json.result.structuredContent.data.map((transaction: { id: string }) => transaction.id));
        fromId = run.json.result.structuredContent.next_from_id;
      } while (fromId);
      const all = (await sandbox.api(history.token, `/accounts/${account}/transactions`)).body.map((transaction: { id: string }) => transaction.id);
      assert.deepEqual(seen, all);
    } finally {
      await reader.stop();
    }
  });

  it('sees a documented failure as a tool error, and an unknown tool as unknown', async () => {
    const missing = await call('get_account', { account_id: 'acc_missing' });
    assert.notEqual(missing.code, 0);
    assert.equal(missing.json.result.isError, true);
    assert.match(missing.json.result.content[0].text, /^404 not_found: .*\nWhat to do: Check the id/s);
    const unknown = await call('create_payment', {});
    assert.notEqual(unknown.code, 0);
    assert.match(unknown.stderr, /create_payment/);
  });

  it('pays through MFA with --allow-writes: the connect_token and what to do, then, once approved, the same call pays once', async () => {
    const writer = await startHttp({ token: enrollment.token, baseUrl: sandbox.url, args: ['--allow-writes'] });
    try {
      const account_id = enrollment.accounts.find((candidate) => candidate.subtype === 'checking')!.id;
      const payee = { scheme: 'zelle', address: 'jane.doe@example.com', name: 'Jane Doe', type: 'person' };
      const args = { idempotency_key: crypto.randomUUID(), account_id, amount: '12.00', memo: 'mfa', payee };
      const challenged = await call('create_payment', args, httpEntry('writer', writer));
      assert.equal(challenged.code, 0, challenged.stderr);
      const connectToken = challenged.json.result.structuredContent.connect_token as string;
      assert.match(challenged.json.result.content[0].text, /What the user must do: approve it in the enrollment widget/);
      const approved = await sandbox.api(enrollment.token, `/sandbox/connect_tokens/${connectToken}/approve`, { method: 'POST' });
      assert.equal(approved.status, 200);
      const paid = await call('create_payment', args, 'writer');
      assert.equal(paid.code, 0, paid.stderr);
      const payment = paid.json.result.structuredContent;
      assert.match(payment.id, /^pay_/);
      const again = await call('create_payment', args, 'writer');
      assert.equal(again.json.result.structuredContent.id, payment.id);
      const made = (await sandbox.api(enrollment.token, `/accounts/${account_id}/payments`)).body.filter((p: { id: string }) => p.id === payment.id);
      assert.equal(made.length, 1);
    } finally {
      await writer.stop();
    }
  });
});
