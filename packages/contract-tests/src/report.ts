// What each suite hands back: the numbers it checked, the problems it found, and why a part was skipped.

export type SuiteResult = {
  suite: string;
  /** One line per run, e.g. "2020-10-12: 14/14 operations, 512 cases, 0 violations". */
  lines: string[];
  /** Each problem with enough detail to reproduce it. */
  problems: string[];
  /** Parts not run, with the reason. A skip is never silent. */
  skipped: string[];
};

export function newResult(suite: string): SuiteResult {
  return { suite, lines: [], problems: [], skipped: [] };
}

export function printResult(result: SuiteResult): void {
  const status = result.problems.length > 0 ? 'FAIL' : result.lines.length === 0 ? 'SKIP' : 'ok';
  console.log(`\n[${status}] ${result.suite}`);
  for (const line of result.lines) console.log(`  ${line}`);
  for (const line of result.skipped) console.log(`  skipped: ${line}`);
  for (const problem of result.problems) console.log(`  problem: ${problem.replace(/\n/g, '\n    ')}`);
}

/** "3 operations" / "1 operation". */
export function count(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : /(s|sh|ch)$/.test(noun) ? 'es' : 's'}`;
}
