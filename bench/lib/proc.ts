// What a process under test uses, read from /proc: its resident memory (VmRSS), sampled while load runs so the
// peak is the process's own, not the load generator's, and the CPU time of all its threads.
import { readFileSync } from 'node:fs';

const ticksPerSecond = 100; // USER_HZ, the unit of /proc/<pid>/stat times on Linux

/** User plus system CPU seconds of all threads of `pid` so far (NaN where /proc is missing). */
export function readCpuSeconds(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name, which is in parentheses and may hold spaces: utime and stime are 14th and 15th.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / ticksPerSecond;
  } catch {
    return Number.NaN;
  }
}

export function readRss(pid: number): number {
  try {
    const match = /^VmRSS:\s+(\d+)\s+kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) * 1024 : Number.NaN;
  } catch {
    return Number.NaN;
  }
}

export interface RssSampler {
  /** Stops sampling; returns the first, peak and last samples in bytes. */
  stop(): { start: number; peak: number; end: number };
}

export function sampleRss(pid: number, intervalMs = 100): RssSampler {
  const start = readRss(pid);
  let peak = start;
  let last = start;
  const take = () => {
    last = readRss(pid);
    if (!(last <= peak)) peak = Number.isNaN(peak) ? last : Math.max(peak, last);
  };
  const timer = setInterval(take, intervalMs);
  return {
    stop() {
      clearInterval(timer);
      take();
      return { start, peak, end: last };
    },
  };
}

/** Direct children of this process (Prism is started by @aggregation/mock inside this process). */
export function childPids(pid = process.pid): number[] {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
  } catch {
    return [];
  }
}
