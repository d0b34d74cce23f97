// Resident memory of a process under test, read from /proc/<pid>/status (VmRSS), sampled
// while load runs so the peak is the process's own, not the load generator's.
import { readFileSync } from 'node:fs';

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
