// The closing line of `npm test`: what vitest reported in each workspace, added up from turbo's prefixed output
// (`<package>:<task>: ...`, the same lines replayed from its cache), and what turbo's run summary says of the tasks:
// which failed, and which never ran because turbo stopped at a failure. A run that failed never closes on `0 failed`.
import { stripVTControlCharacters } from 'node:util';

interface TaskCounts {
  passed: number;
  failed: number;
  skipped: number;
  /** Test files vitest reported as failed: a test failed in them, or they threw outside a test (beforeAll, import). */
  filesFailed: number;
}

/** One task of turbo's run summary (`--summarize`), as far as the closing line needs it. */
export interface SummaryTask {
  taskId: string;
  execution?: { exitCode?: number | null; error?: string } | null;
}

export interface RunOutcome {
  /** turbo's exit code. */
  exitCode: number;
  /** The tasks turbo's run summary lists: those that ran to their end (or replayed from the cache). */
  ran: SummaryTask[];
  /** Every task of the run's graph that has a command; undefined when unknown. */
  planned?: string[];
}

// vitest's closing counts, e.g. `      Tests  1 failed | 120 passed | 2 skipped | 1 todo (124)` and
// ` Test Files  1 failed | 3 passed (4)`, after turbo's `<package>:<task>: ` prefix.
const prefixed = /^(\S+): (.*)$/;
const countsLine = /^\s*(Test Files|Tests)\s+((?:\d+ [a-z]+(?: \| )?)+)\s+\(\d+\)\s*$/;
const countOf = /(\d+) ([a-z]+)/g;

/** `@aggregation/cli:test` (turbo's log prefix) as the task id of its run summary, `@aggregation/cli#test`. */
const taskIdOf = (prefix: string): string => {
  const colon = prefix.startsWith('//:') ? 2 : prefix.indexOf(':');
  return colon < 0 ? prefix : `${prefix.slice(0, colon)}#${prefix.slice(colon + 1)}`;
};

const names = (ids: string[], most = 5): string => (ids.length <= most ? ` (${ids.join(', ')})` : ` (${ids.slice(0, most).join(', ')}, ...)`);
const plural = (count: number, word: string): string => `${count} ${word}${count === 1 ? '' : 's'}`;

export class TestRunTally {
  private readonly tasks = new Map<string, TaskCounts>();

  /** Reads one line of turbo's output. */
  line(raw: string): void {
    const text = stripVTControlCharacters(raw);
    const [, prefix, rest] = prefixed.exec(text) ?? [undefined, '', text];
    const match = countsLine.exec(rest!);
    if (!match) return;
    const id = taskIdOf(prefix!);
    const counts = this.tasks.get(id) ?? { passed: 0, failed: 0, skipped: 0, filesFailed: 0 };
    for (const [, count, state] of match[2]!.matchAll(countOf)) {
      const n = Number(count);
      if (match[1] === 'Test Files') {
        if (state === 'failed') counts.filesFailed += n;
      } else if (state === 'passed') counts.passed += n;
      else if (state === 'failed') counts.failed += n;
      // A todo is a test that did not run: it counts as skipped.
      else if (state === 'skipped' || state === 'todo') counts.skipped += n;
    }
    this.tasks.set(id, counts);
  }

  /** `tests: N passed, N failed, N skipped`, and on a failed run what failed and what did not run. */
  closingLine(outcome: RunOutcome): string {
    const failedTasks = outcome.ran.filter((task) => (task.execution?.exitCode ?? 0) !== 0).map((task) => task.taskId);
    const listed = new Set(outcome.ran.map((task) => task.taskId));
    const notRun = (outcome.planned ?? []).filter((id) => !listed.has(id));
    let passed = 0;
    let failed = 0;
    let skipped = 0;
    const filesFailedIn: string[] = [];
    for (const [id, counts] of this.tasks) {
      passed += counts.passed;
      skipped += counts.skipped;
      // A file that failed without a failed test (a throwing beforeAll) still counts once.
      failed += Math.max(counts.failed, counts.filesFailed);
      if (counts.filesFailed > 0) filesFailedIn.push(id);
    }
    // A failed task that reported no failed test (a type error, a lint finding, a coverage floor, a crash).
    for (const id of failedTasks) {
      const counts = this.tasks.get(id);
      if (!counts || (counts.failed === 0 && counts.filesFailed === 0)) failed++;
    }
    if (outcome.exitCode !== 0 && failed === 0) failed = 1;
    const tests = `tests: ${passed} passed, ${failed} failed, ${skipped} skipped`;
    if (outcome.exitCode === 0 && failed === 0) return tests;
    const details: string[] = [];
    const filesFailed = [...this.tasks.values()].reduce((sum, counts) => sum + counts.filesFailed, 0);
    if (filesFailed > 0) details.push(`${plural(filesFailed, 'test file')} failed${names(filesFailedIn)}`);
    const tasks: string[] = [];
    if (failedTasks.length > 0) tasks.push(`${plural(failedTasks.length, 'task')} failed${names(failedTasks)}`);
    if (notRun.length > 0) tasks.push(`${notRun.length} not run${names(notRun)}`);
    if (tasks.length > 0) details.push(tasks.join(', '));
    if (failedTasks.length === 0 && outcome.planned === undefined) details.push(`turbo exited with ${outcome.exitCode}`);
    return `${tests}; ${details.join('; ')}`;
  }
}
