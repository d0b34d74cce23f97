// What the numbers were taken on: CPU, cores, memory, Node, and how busy the machine was
// (other work on a shared machine moves every number).
import { readFileSync } from 'node:fs';
import { availableParallelism, cpus, loadavg, release, totalmem } from 'node:os';

export interface CpuTimes {
  busy: number;
  total: number;
}

export function cpuModel(): string {
  try {
    const match = /^model name\s*:\s*(.+)$/m.exec(readFileSync('/proc/cpuinfo', 'utf8'));
    if (match) return match[1]!.trim();
  } catch {
    // not Linux: fall through to os.cpus()
  }
  return cpus()[0]?.model ?? 'unknown';
}

/** Whole-machine CPU counters from /proc/stat (jiffies), to tell how loaded the run was. */
export function cpuTimes(): CpuTimes | undefined {
  try {
    const fields = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1).map(Number);
    const idle = (fields[3] ?? 0) + (fields[4] ?? 0);
    const total = fields.reduce((sum, value) => sum + value, 0);
    return { busy: total - idle, total };
  } catch {
    return undefined;
  }
}

export function busyShare(from: CpuTimes | undefined, to: CpuTimes | undefined): number {
  if (!from || !to || to.total === from.total) return Number.NaN;
  return (to.busy - from.busy) / (to.total - from.total);
}

/** Microseconds during which some runnable task waited for a CPU (Linux pressure stall information). */
export function cpuPressureMicros(): number | undefined {
  try {
    const match = /^some .*total=(\d+)$/m.exec(readFileSync('/proc/pressure/cpu', 'utf8'));
    return match ? Number(match[1]) : undefined;
  } catch {
    return undefined;
  }
}

/** How busy the machine is with other work: whole-machine CPU busy share over a short idle sample. */
export async function backgroundBusy(ms = 2000): Promise<number> {
  const from = cpuTimes();
  await new Promise((resolve) => setTimeout(resolve, ms));
  return busyShare(from, cpuTimes());
}

export function describeMachine(): string[] {
  const [one, five, fifteen] = loadavg();
  return [
    `CPU: ${cpuModel()}, ${availableParallelism()} cores`,
    `Memory: ${(totalmem() / 1024 ** 3).toFixed(1)} GiB`,
    `Node: ${process.version} (${process.platform} ${release()})`,
    `Load average when the run started: ${one!.toFixed(2)} / ${five!.toFixed(2)} / ${fifteen!.toFixed(2)} (1 / 5 / 15 min)`,
  ];
}
