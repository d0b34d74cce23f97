// The packed MCP server as an integrator meets it: its tarball (with the published packages it depends on) installed
// into an empty project outside the repository, then `npx aggregation-mcp` started in that project by the official MCP
// SDK's client, as an MCP host starts it, on the machine's Node.js (20.19 or newer), against the sandbox server.
import assert from 'node:assert/strict';
import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { type RunningServer, startServer } from '@aggregation/server';
import { stopOnExit } from '@aggregation/test-support';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { HANG_GUARD_MS } from '../../../vitest.shared.ts';
import { cleanEnv, installPacked, run, temporaryDir } from './support/project.ts';

// No request timed out short of the tests' hang guard (the SDK gives each 60 s): a loaded machine only makes it slower.
const patient = { timeout: HANG_GUARD_MS };

describe('aggregation-mcp, installed in an empty project', () => {
  let project: string;
  let sandbox: RunningServer;
  let token: string;
  let accounts: { id: string }[];
  let client: Client;
  let forget: () => void;

  beforeAll(async () => {
    project = await temporaryDir('aggregation-mcp-consumer-');
    await writeFile(join(project, 'package.json'), `${JSON.stringify({ name: 'mcp-consumer', private: true }, null, 2)}\n`);
    await installPacked(project, ['@aggregation/mcp']);
    sandbox = await startServer({ port: 0, hostname: '127.0.0.1', databasePath: join(project, 'sandbox.sqlite'), webhooks: { autostart: false } });
    const response = await fetch(`${sandbox.url}/sandbox/enrollments`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'username', password: 'password' }),
    });
    ({ access_token: token, accounts } = (await response.json()) as { access_token: string; accounts: { id: string }[] });
    // What a host runs: the command of the Agents guide's entry, in the project, with the token in its environment.
    const env = Object.fromEntries(
      Object.entries(cleanEnv({ AGGREGATION_TOKEN: token, AGGREGATION_BASE_URL: sandbox.url })).filter(
        (entry): entry is [string, string] => entry[1] !== undefined,
      ),
    );
    const transport = new StdioClientTransport({ command: 'npx', args: ['--no-install', 'aggregation-mcp'], cwd: project, env, stderr: 'pipe' });
    client = new Client({ name: 'mcp-consumer', version: '1.0.0' });
    await client.connect(transport, patient);
    forget = stopOnExit(() => transport.pid && process.kill(transport.pid, 'SIGKILL'));
  });

  afterAll(async () => {
    await client?.close();
    forget?.();
    await sandbox?.close();
    if (project) await rm(project, { recursive: true, force: true, maxRetries: 3 });
  });

  it('lists the reading tools and calls list_accounts through the official client', async () => {
    const { tools } = await client.listTools(undefined, patient);
    assert.equal(tools.length, 11);
    assert.ok(!tools.some((tool) => tool.name === 'create_payment'));
    const result = await client.callTool({ name: 'list_accounts', arguments: {} }, undefined, patient);
    assert.notEqual(result.isError, true, JSON.stringify(result));
    const data = (result.structuredContent as { data: { id: string }[] }).data;
    assert.deepEqual(
      data.map((account) => account.id),
      accounts.map((account) => account.id),
    );
  });

  it('offers the docs it was packed with as resources', async () => {
    const { contents } = await client.readResource({ uri: 'aggregation://docs/guides/agents.md' }, patient);
    assert.match((contents[0] as { text: string }).text, /^# Agents \(MCP\)/);
  });

  it('says what it takes with --help, on stdout, and exits', async () => {
    const { stdout } = await run('npx', ['--no-install', 'aggregation-mcp', '--help'], { cwd: project, env: cleanEnv() });
    assert.match(stdout, /--allow-writes/);
    assert.match(stdout, /AGGREGATION_TOKEN/);
  });
});
