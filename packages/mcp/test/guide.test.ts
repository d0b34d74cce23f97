// The Agents guide (apps/docs/guides/agents.md) as a user follows it: its `mcpServers` entry started the way a host
// starts it (its command, arguments and environment, in the project's folder, here this repository's, where the
// package is installed), its Inspector command run as printed, and its table of tools and options the server's own.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { codeBlocksOf, loadGuides } from '@aggregation/docs/guides';
import { stopOnExit, stopsWithThisProcess } from '@aggregation/test-support';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { buildProgram } from '../src/cli.ts';
import { AggregationMcp } from '../src/index.ts';
import { assertStructured, patientClient } from './helpers/mcp.ts';
import { type Enrollment, type Sandbox, startSandbox } from './helpers/sandbox.ts';

const repository = fileURLToPath(new URL('../../../', import.meta.url));
const guide = loadGuides().find((candidate) => candidate.name === 'agents')!;
const blocks = codeBlocksOf(guide);

let sandbox: Sandbox;
let enrollment: Enrollment;
const home = mkdtempSync(join(tmpdir(), 'aggregation-mcp-guide-'));

beforeAll(async () => {
  sandbox = await startSandbox();
  enrollment = await sandbox.enroll('username');
});
afterAll(async () => {
  await sandbox?.close();
  rmSync(home, { recursive: true, force: true });
});

describe('the Agents guide', () => {
  it('is linked from llms.txt, which the docs build', () => {
    const llms = readFileSync(createRequire(import.meta.url).resolve('@aggregation/docs/dist/llms.txt'), 'utf8');
    assert.ok(llms.includes(`- [${guide.title}](guides/agents.md): ${guide.summary}`), llms);
  });

  it('its mcpServers entry starts the server as a host does, and list_accounts answers', async () => {
    const entries = blocks
      .filter((block) => block.language === 'json')
      .map((block) => JSON.parse(block.source) as { mcpServers: Record<string, { command?: string; args?: string[]; env?: Record<string, string> }> });
    const entry = entries.map((config) => config.mcpServers.aggregation!).find((candidate) => candidate.command)!;
    assert.equal(entry.command, 'npx');
    assert.deepEqual(entry.args, ['aggregation-mcp']);
    assert.deepEqual(Object.keys(entry.env!).sort(), ['AGGREGATION_BASE_URL', 'AGGREGATION_TOKEN']);
    // The placeholders, filled in as the reader would.
    const env = { ...entry.env, AGGREGATION_BASE_URL: sandbox.url, AGGREGATION_TOKEN: enrollment.token, PATH: process.env.PATH ?? '', HOME: home };
    const transport = new StdioClientTransport({ command: entry.command!, args: entry.args!, env, cwd: repository, stderr: 'pipe' });
    const client = patientClient('guide');
    await client.connect(transport);
    const forget = stopOnExit(() => transport.pid && process.kill(transport.pid, 'SIGKILL'));
    try {
      const { tools } = await client.listTools();
      const listAccounts = tools.find((tool) => tool.name === 'list_accounts')!;
      const accounts = assertStructured(listAccounts, (await client.callTool({ name: 'list_accounts', arguments: {} })) as never);
      assert.deepEqual(
        accounts.data.map((account: { id: string }) => account.id),
        enrollment.accounts.map((account) => account.id),
      );
    } finally {
      await client.close();
      forget();
    }
  });

  it('its Inspector command lists the accounts', async () => {
    const printed = blocks.find((block) => block.source.includes('@modelcontextprotocol/inspector'))!.source;
    // As printed, but with no limit on how long the server may take to start (the Inspector's default is 15 s), which
    // a loaded machine can exceed.
    const command = printed.replace(' --cli ', ' --cli --connect-timeout 0 ');
    assert.notEqual(command, printed);
    const child = stopsWithThisProcess(
      spawn('sh', ['-c', command], {
        cwd: repository,
        env: { PATH: process.env.PATH ?? '', HOME: home, AGGREGATION_TOKEN: enrollment.token, AGGREGATION_BASE_URL: sandbox.url },
      }),
    );
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const code = await new Promise((resolve) => child.on('close', resolve));
    assert.equal(code, 0, output);
    for (const account of enrollment.accounts) assert.ok(output.includes(account.id), output);
  });

  it("its table of tools is the server's: each tool, its operation, and whether it needs --allow-writes", () => {
    const rows = [...guide.markdown.matchAll(/^\| `(\w+)` \| `(\w+) ([^`]+)` \| (always|with `--allow-writes`) \|$/gm)].map(
      ([, name, method, path, offered]) => ({
        name,
        operation: `${method} ${path}`,
        reads: offered === 'always',
      }),
    );
    const served = new AggregationMcp({ allowWrites: true, log: () => {} }).tools.map((tool) => ({
      name: tool.name,
      operation: `${tool.operation.method.toUpperCase()} ${tool.operation.path}`,
      reads: tool.reads,
    }));
    const byName = (a: { name?: string }, b: { name?: string }) => a.name!.localeCompare(b.name!);
    assert.deepEqual(rows.sort(byName), served.sort(byName));
  });

  it("its table of options is the command's", () => {
    const documented = [...guide.markdown.matchAll(/^\| `(--[\w-]+)[^|]*\|/gm)].flatMap(([row]) =>
      [...row.matchAll(/`(--[\w-]+)/g)].map((match) => match[1]),
    );
    const options = buildProgram()
      .options.map((option) => option.long!)
      .filter((option) => option !== '--help');
    assert.deepEqual(documented.sort(), options.sort());
  });
});
