// `npm start` (src/main.ts, run by the bin) as a person meets it: a port already taken is one line saying so and how
// to choose another, not a stack trace; the bin runs the server in a process with the server's V8 flags.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync } from 'node:fs';
import { type AddressInfo, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { exitWithParent, stopsWithThisProcess } from '@aggregation/test-support';
import { test } from 'vitest';
import { missingFlags, SERVER_V8_FLAGS } from '../src/v8-flags.ts';
import { startListening } from './helpers/child.ts';

const main = fileURLToPath(new URL('../src/main.ts', import.meta.url));

test('a port in use is one line naming it and how to choose another', async () => {
  const taken = createServer().listen(0, '127.0.0.1');
  await once(taken, 'listening');
  const { port } = taken.address() as AddressInfo;
  try {
    const env = { ...process.env, PORT: String(port), HOST: '', DATABASE_PATH: join(mkdtempSync(join(tmpdir(), 'main-')), 'sandbox.sqlite') };
    const { code, stderr } = await new Promise<{ code: number | null; stderr: string }>((resolve) => {
      // However long a loaded machine takes to start it: its exit is the verdict.
      const child = execFile(process.execPath, [...exitWithParent, main], { env }, (error, _stdout, stderr) => {
        resolve({ code: error ? ((error as { code?: number }).code ?? null) : 0, stderr: String(stderr) });
      });
      stopsWithThisProcess(child);
      child.stdin?.end();
    });
    assert.equal(code, 1);
    const lines = stderr.trim().split('\n');
    assert.equal(lines.length, 1, stderr);
    assert.match(lines[0]!, new RegExp(`Port ${port} is already in use.*PORT=${port + 1} npm start`));
  } finally {
    taken.close();
  }
});

// It reads the process's command line from /proc.
test.skipIf(process.platform !== 'linux')("the bin replaces its process with one that has the server's V8 flags: same pid, same output", async () => {
  const dir = mkdtempSync(join(tmpdir(), 'main-bin-'));
  const { child, url, exited } = await startListening(fileURLToPath(new URL('../src/bin.ts', import.meta.url)), {
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', DATABASE_PATH: join(dir, 'sandbox.sqlite'), ACCESS_LOG: 'off' },
  });
  try {
    assert.equal((await fetch(`${url}/institutions`)).status, 200, 'it serves');
    const commandLine = readFileSync(`/proc/${child.pid}/cmdline`, 'utf8').split('\0');
    for (const flag of SERVER_V8_FLAGS) assert.ok(commandLine.includes(flag), `${flag} in ${commandLine.join(' ')}`);
    assert.ok(commandLine.some((arg) => arg.endsWith('bin.ts')));
  } finally {
    child.kill('SIGTERM');
    await exited;
  }
});

test('a V8 flag the operator gave, on the command line or in NODE_OPTIONS, is kept as given', () => {
  assert.deepEqual(missingFlags(SERVER_V8_FLAGS, [], ''), [...SERVER_V8_FLAGS]);
  assert.deepEqual(missingFlags(['--max-semi-space-size=8', '--max-old-space-size=128'], ['--max-old-space-size=512'], ''), [
    '--max-semi-space-size=8',
  ]);
  assert.deepEqual(missingFlags(['--max-semi-space-size=8', '--max-old-space-size=128'], [], ' --max-semi-space-size=32  --inspect'), [
    '--max-old-space-size=128',
  ]);
  assert.deepEqual(missingFlags(SERVER_V8_FLAGS, [...SERVER_V8_FLAGS], ''), [], 'a relaunched process adds nothing');
});
