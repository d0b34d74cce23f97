// What a process under test uses, read from /proc (src/proc.ts): checked on this process and its children, by the CPU
// time and memory they really used.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { describe, test } from 'vitest';
import { childPids, readChildrenCpuSeconds, readCpuSeconds, readRss, readRssParts, sampleRss } from '../src/index.ts';

/** Spends `seconds` of this thread's CPU time. */
function spin(seconds: number): void {
  const until = process.cpuUsage().user + seconds * 1e6;
  while (process.cpuUsage().user < until) {
    // busy
  }
}

const NO_SUCH_PID = 2 ** 22 + 1;

describe.skipIf(process.platform !== 'linux')('/proc readings', () => {
  test('CPU seconds grow by the CPU time spent; a missing process reads NaN', () => {
    const before = readCpuSeconds(process.pid);
    spin(0.3);
    assert.ok(readCpuSeconds(process.pid) - before >= 0.2, `${readCpuSeconds(process.pid) - before}`);
    assert.ok(Number.isNaN(readCpuSeconds(NO_SUCH_PID)));
  });

  test("a child's CPU seconds count for its parent once it ended; while it runs it is among the children", async () => {
    const before = readChildrenCpuSeconds();
    const child = spawn(process.execPath, [
      '-e',
      'const u = process.cpuUsage().user + 3e5; while (process.cpuUsage().user < u); setTimeout(() => {}, 200)',
    ]);
    assert.ok(childPids().includes(child.pid!));
    await once(child, 'exit');
    assert.ok(readChildrenCpuSeconds() - before >= 0.2, `${readChildrenCpuSeconds() - before}`);
  });

  test('resident memory: the peak sampled holds memory touched and let go in between', async () => {
    assert.ok(readRss(process.pid) > 0);
    assert.ok(readRssParts(process.pid).anonymous > 0);
    assert.ok(Number.isNaN(readRss(NO_SUCH_PID)));
    const sampler = sampleRss(process.pid, 10);
    let held: Buffer | undefined = Buffer.alloc(128 * 1024 * 1024, 1);
    // A sample is taken while the memory is held: the sampler's interval runs.
    await new Promise((resolve) => setTimeout(resolve, 100));
    assert.equal(held[held.length - 1], 1);
    held = undefined;
    const { start, peak, end } = sampler.stop();
    assert.ok(peak - start >= 100 * 1024 * 1024, `start ${start}, peak ${peak}`);
    assert.ok(peak >= end);
  });
});
