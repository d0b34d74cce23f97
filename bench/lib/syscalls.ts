// Counts a process's fsync/fdatasync calls with `strace -c` while something runs, to show that
// each acknowledged write was synced to disk (when strace is installed and allowed to attach).
import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { stopsWithThisProcess } from '@aggregation/test-support';

export function straceAvailable(): boolean {
  return spawnSync('strace', ['-V'], { stdio: 'ignore' }).status === 0;
}

export async function countSyncs(pid: number, during: () => Promise<void>): Promise<number | undefined> {
  const strace = stopsWithThisProcess(
    spawn('strace', ['-f', '-c', '-e', 'trace=fsync,fdatasync', '-p', String(pid)], { stdio: ['ignore', 'ignore', 'pipe'] }),
  );
  let output = '';
  strace.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  // strace prints "attached" per thread once it holds the process.
  const attachDeadline = Date.now() + 5000;
  while (!/attached/.test(output) && strace.exitCode === null && Date.now() < attachDeadline) await new Promise((r) => setTimeout(r, 20));
  if (strace.exitCode !== null) return undefined;
  try {
    await during();
  } finally {
    strace.kill('SIGINT');
    await once(strace, 'exit');
  }
  let total = 0;
  for (const match of output.matchAll(/^\s*[\d.]+\s+[\d.]+\s+\d+\s+(\d+)\s+(?:\d+\s+)?(fsync|fdatasync)$/gm)) total += Number(match[1]);
  return /fsync|fdatasync/.test(output) || /total/.test(output) ? total : undefined;
}
