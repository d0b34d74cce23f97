// A test process that is stopped leaves no PostgreSQL behind: Ctrl-C and SIGTERM stop its private cluster and
// remove its folder, and a cluster whose owner was killed outright (SIGKILL) is swept by the next start of one.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { skipWhenMissing } from '@aggregation/test-support';
import { describe, test } from 'vitest';
import { findPostgresBin, sweepAbandonedClusters } from './helpers/postgres.ts';

const bin = findPostgresBin();
const skip =
  skipWhenMissing('the PostgreSQL cleanup tests', !bin && 'no initdb and pg_ctl: install PostgreSQL (Debian: apt-get install -y postgresql)') ||
  (process.env.TEST_DATABASE_URL || process.env.DATABASE_URL ? 'a PostgreSQL server is given: no private cluster to stop' : false);

/** Whether a process runs: a zombie (ended, not yet reaped by a container's init) does not. */
const alive = (pid: number): boolean => {
  try {
    return readFileSync(`/proc/${pid}/stat`, 'utf8').split(')').at(-1)!.trim()[0] !== 'Z';
  } catch {
    return false;
  }
};

/** A child test process with its own cluster: its pid, the cluster's folder and the postmaster's pid. */
async function owner() {
  const child = spawn(process.execPath, [join(import.meta.dirname, 'helpers', 'postgres-owner.ts')], { stdio: ['ignore', 'pipe', 'inherit'] });
  const exited = once(child, 'exit');
  let dir: string | undefined;
  for await (const line of createInterface({ input: child.stdout! })) {
    dir = /^cluster (\S+)$/.exec(line)?.[1];
    if (dir) break;
  }
  assert.ok(dir, 'the child started a cluster');
  const postmaster = Number(readFileSync(join(dir, 'data', 'postmaster.pid'), 'utf8').split('\n')[0]);
  assert.ok(alive(postmaster));
  return { child, exited, dir, postmaster };
}

describe.skipIf(skip)('PostgreSQL clusters of stopped test processes', () => {
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    test(`${signal} to the test process stops its cluster and removes its folder`, async () => {
      const { child, exited, dir, postmaster } = await owner();
      child.kill(signal);
      const [code] = await exited;
      assert.equal(code, signal === 'SIGTERM' ? 143 : 130);
      assert.equal(alive(postmaster), false, 'no postgres left running');
      assert.equal(existsSync(dir), false);
    });
  }

  test('the cluster of a test process killed by SIGKILL is stopped and removed by the next start of one', async () => {
    const { child, exited, dir, postmaster } = await owner();
    child.kill('SIGKILL');
    await exited;
    assert.equal(alive(postmaster), true, 'SIGKILL ran nothing: the cluster is still up');
    assert.ok(sweepAbandonedClusters(bin!).includes(dir));
    assert.equal(alive(postmaster), false);
    assert.equal(existsSync(dir), false);
  });
});

test('outside a vitest run (a script, the bench, a child process) there is no shared cluster, and asking says so', async () => {
  const script = `import { sharedClusterUrl } from ${JSON.stringify(join(import.meta.dirname, 'helpers', 'postgres.ts'))}; console.log(String(await sharedClusterUrl()));`;
  const child = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk));
  const [code] = await once(child, 'exit');
  assert.equal(code, 0, output);
  assert.equal(output.trim(), 'undefined');
});
