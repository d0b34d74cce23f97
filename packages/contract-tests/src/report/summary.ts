// summary.md: what a CI page shows, a table per suite (and the coverage), then each failure with its reproduction.
import { failureText } from './text.ts';
import type { ContractReport, DocumentCoverage, ReportCore, Testsuite } from './types.ts';

export const cell = (text: string) => text.replaceAll('|', '\\|').replaceAll('\n', ' ');
export const percent = (value: number) => `${value.toFixed(1)} %`;

export function coverageLine(c: DocumentCoverage): string {
  return (
    `${c.document}: ${c.operations.called} of ${c.operations.total} operations called, ` +
    `${c.responses.observed} of ${c.responses.total} documented responses observed (${percent(c.responses.percent)})`
  );
}

export function suiteTable(testsuites: Testsuite[]): string[] {
  const lines = ['| document | testcases | passed | failed | skipped | what was checked |', '|---|---:|---:|---:|---:|---|'];
  for (const s of testsuites) {
    const by = (status: string) => s.testcases.filter((t) => t.status === status).length;
    lines.push(`| ${s.document} | ${s.testcases.length} | ${by('passed')} | ${by('failed')} | ${by('skipped')} | ${cell(s.notes.join('; '))} |`);
  }
  return lines;
}

/** `behaviour 4 s, schemathesis 85 s, ...`: each suite's time (they run side by side). */
export const suiteTimes = (report: ContractReport): string =>
  report.suiteDurations.map((d) => `${d.suite} ${d.seconds.toFixed(0)} s`).join(', ') || 'no suite ran';

export function summaryMarkdown(report: ContractReport): string {
  const verdict = report.exitCode === 0 ? 'passed' : report.exitCode === 1 ? 'failed' : 'could not run';
  const t = report.totals;
  const lines = [
    `# Contract tests ${verdict}`,
    '',
    `\`${report.target.baseUrl}\`: ${t.testcases} testcases, ${t.passed} passed, ${t.failed} failed, ${t.skipped} skipped, in ` +
      `${report.durationSeconds.toFixed(0)} s (${report.options.quick ? '--quick, ' : ''}seeds ${report.options.seeds.join(', ')}).`,
    '',
    `Time per suite, side by side: ${suiteTimes(report)}.`,
    '',
    '## Coverage',
    '',
    '| document | operations called | documented responses observed |',
    '|---|---:|---:|',
    ...report.coverage.map(
      (c) =>
        `| ${c.document} | ${c.operations.called} of ${c.operations.total} | ${c.responses.observed} of ${c.responses.total} (${percent(c.responses.percent)}) |`,
    ),
  ];
  if (report.options.minCoverage !== null)
    lines.push('', `Minimum: ${percent(report.options.minCoverage)} of the documented responses of each document tested.`);
  lines.push(...suiteSections(report));
  return `${lines.join('\n')}\n`;
}

/** A table per suite, then every failure with its reproduction, what could not run and what was skipped. */
export function suiteSections(report: ReportCore): string[] {
  const lines: string[] = [];
  const suites = [...new Set(report.testsuites.map((s) => s.suite))];
  for (const suite of suites) lines.push('', `## ${suite}`, '', ...suiteTable(report.testsuites.filter((s) => s.suite === suite)));
  const failed = report.testsuites.flatMap((s) => s.testcases.filter((t) => t.status === 'failed').map((t) => ({ s, t })));
  if (failed.length) {
    lines.push('', '## Failures');
    for (const { s, t } of failed) {
      lines.push('', `### ${s.name}: ${t.name}`, '', '```', ...t.failures.map(failureText).join('\n\n').split('\n'), '```');
    }
  }
  if (report.errors.length) lines.push('', '## Could not run', '', ...report.errors.map((e) => `- ${e.suite}: ${cell(e.message.split('\n')[0]!)}`));
  if (report.skipped.length) lines.push('', '## Skipped', '', ...report.skipped.map((s) => `- ${s.suite}: ${cell(s.reason)}`));
  return lines;
}
