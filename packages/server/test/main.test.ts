// `npm start` (src/main.ts) as a person meets it: a port already taken is one line saying so and how to choose
// another, not a stack trace.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync } from 'node:fs';
import { type AddressInfo, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'vitest';

const main = fileURLToPath(new URL('../src/main.ts', import.meta.url));

test('a port in use is one line naming it and how to choose another', async () => {
  const taken = createServer().listen(0, '127.0.0.1');
  await once(taken, 'listening');
  const { port } = taken.address() as AddressInfo;
  try {
    const env = { ...process.env, PORT: String(port), HOST: '', DATABASE_PATH: join(mkdtempSync(join(tmpdir(), 'main-')), 'sandbox.sqlite') };
    const { code, stderr } = await new Promise<{ code: number | null; stderr: string }>((resolve) => {
      const child = execFile(process.execPath, [main], { env, timeout: 30_000 }, (error, _stdout, stderr) => {
        resolve({ code: error ? ((error as { code?: number }).code ?? null) : 0, stderr: String(stderr) });
      });
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
