// What a process under test uses, read from /proc: its resident memory (VmRSS), sampled while load runs so the
// peak is the process's own, not the load generator's, and the CPU time of all its threads.
import { readFileSync } from 'node:fs';

const ticksPerSecond = 100; // USER_HZ, the unit of /proc/<pid>/stat times on Linux

/** The sum of two fields of /proc/<pid>/stat, counted from the 3rd (the one after the command name), in seconds. */
function statSeconds(pid: number, first: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name is in parentheses and may hold spaces: fields are counted after it.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[first]) + Number(fields[first + 1])) / ticksPerSecond;
  } catch {
    return Number.NaN;
  }
}

/** User plus system CPU seconds of all threads of `pid` so far (utime, stime; NaN where /proc is missing). */
export function readCpuSeconds(pid: number): number {
  return statSeconds(pid, 11);
}

/**
 * User plus system CPU seconds of the children of `pid` that ended and were waited for, their own waited-for
 * descendants included (cutime, cstime). Daemons that leave their parent are not counted.
 */
export function readChildrenCpuSeconds(pid: number = process.pid): number {
  return statSeconds(pid, 13);
}

/** Resident memory by kind (/proc/<pid>/status): anonymous (heaps), file-backed (code, mapped files), shared memory. */
export interface RssParts {
  anonymous: number;
  file: number;
  shared: number;
}

/** Fields of /proc/<pid>/status counted in kB, in bytes (NaN where /proc or the field is missing). */
function statusBytes<Name extends string>(pid: number, names: readonly Name[]): Record<Name, number> {
  let status = '';
  try {
    status = readFileSync(`/proc/${pid}/status`, 'utf8');
  } catch {
    // every field NaN
  }
  const bytes = {} as Record<Name, number>;
  for (const name of names) bytes[name] = Number(new RegExp(`^${name}:\\s+(\\d+)\\s+kB$`, 'm').exec(status)?.[1] ?? Number.NaN) * 1024;
  return bytes;
}

export function readRssParts(pid: number): RssParts {
  const { RssAnon, RssFile, RssShmem } = statusBytes(pid, ['RssAnon', 'RssFile', 'RssShmem']);
  return { anonymous: RssAnon, file: RssFile, shared: RssShmem };
}

export function readRss(pid: number): number {
  return statusBytes(pid, ['VmRSS']).VmRSS;
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
