// Reads the run summary turbo writes with --summarize (.turbo/runs/<id>.json): each task's wall time, for naming
// the slowest tasks of a run.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

export interface TaskTime {
  taskId: string;
  ms: number;
  cache: string;
  exitCode: number | null;
}

interface Summary {
  tasks: { taskId: string; cache: { status: string }; execution?: { startTime: number; endTime: number; exitCode: number | null } }[];
}

/** The tasks of the newest run summary under `root`, slowest first; empty when turbo wrote none. */
export function slowestTasks(root: string): TaskTime[] {
  const dir = join(root, '.turbo', 'runs');
  let files: string[];
  try {
    files = readdirSync(dir).filter((name) => name.endsWith('.json'));
  } catch {
    return [];
  }
  const newest = files.map((name) => join(dir, name)).sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs)[0];
  if (!newest) return [];
  const summary = JSON.parse(readFileSync(newest, 'utf8')) as Summary;
  return summary.tasks
    .filter((task) => task.execution)
    .map((task) => ({
      taskId: task.taskId,
      ms: task.execution!.endTime - task.execution!.startTime,
      cache: task.cache.status,
      exitCode: task.execution!.exitCode,
    }))
    .sort((a, b) => b.ms - a.ms);
}
