// The consumer mode's verdict (one line, first), coverage of the operations used, summary.md and the printed report,
// written with the server mode's helpers.
import type { DocumentName } from '@aggregation/openapi/contract';
import { documentOf, responseKey, validatorOf } from '../coverage.ts';
import type { Exchange } from '../recorder.ts';
import { cell, percent, suiteSections } from '../report/summary.ts';
import { failureText } from '../report/text.ts';
import type { ConsumerReport, OperationUsage } from '../report/types.ts';
import { operationsById } from './requests.ts';

/** Per document the command called: operations used out of all, and per used operation the answers it met. */
export function usageOf(exchanges: Exchange[], version: DocumentName): ConsumerReport['usage'] {
  const used = new Map<DocumentName, Map<string, OperationUsage>>([[version, new Map()]]);
  for (const exchange of exchanges) {
    const document = documentOf(exchange);
    const matched = validatorOf(document).match(exchange.method, exchange.path);
    const operation = typeof matched?.operation.operationId === 'string' ? operationsById(document).get(matched.operation.operationId) : undefined;
    if (!operation) continue;
    if (!used.has(document)) used.set(document, new Map());
    const byId = used.get(document)!;
    let entry = byId.get(operation.operationId);
    if (!entry) {
      entry = {
        operation: `${operation.method.toUpperCase()} ${operation.path}`,
        operationId: operation.operationId,
        requests: 0,
        exercised: [],
        documented: operation.responses.map((r) => r.status),
      };
      byId.set(operation.operationId, entry);
    }
    entry.requests++;
    // A lost answer never reached the command: it was exercised against no answer at all.
    const key = exchange.lost ? undefined : responseKey(Object.fromEntries(operation.responses.map((r) => [r.status, r])), exchange.status);
    if (key && !entry.exercised.includes(key)) entry.exercised.push(key);
  }
  return [...used].map(([document, operations]) => {
    const total = operationsById(document).size;
    const list = [...operations.values()].map((o) => ({ ...o, exercised: o.documented.filter((s) => o.exercised.includes(s)) }));
    return { document, used: list.length, total, percent: total ? (100 * list.length) / total : 0, operations: list };
  });
}

const firstLine = (text: string) => text.split('\n')[0]!;

/** The one line that says what the run found: the most serious finding first (a double payment before all). */
export function verdictOf(report: ConsumerReport): string {
  const name = report.mode === 'webhooks' ? 'webhook receiver checks' : 'consumer contract tests';
  const failed = report.testsuites.flatMap((s) => s.testcases.filter((t) => t.status === 'failed').map((t) => ({ s, t })));
  if (report.exitCode === 2) return `${name} could not run: ${firstLine(report.errors[0]?.message ?? 'see the report')}`;
  if (report.exitCode === 1) {
    const double = report.defects.find((d) => d.severity === 'double-payment');
    const first = double
      ? `double payment in the ${double.round} round: ${double.message}`
      : `${failed[0]!.s.name}: ${failed[0]!.t.name}: ${firstLine(failed[0]!.t.failures[0]?.message ?? 'failed')}`;
    return `${name} failed: ${first}${failed.length > 1 ? ` (and ${failed.length - 1} more failed testcases)` : ''}`;
  }
  if (report.mode === 'webhooks') return `${name} passed: ${report.totals.passed} of ${report.totals.testcases} checks`;
  const requests = report.runs.reduce((n, r) => n + r.requests, 0);
  const rounds = report.options.faults.length ? `; fault rounds passed: ${report.options.faults.join(', ')}` : '';
  return `${name} passed: the command passed and its ${requests} requests kept the description${rounds}`;
}

function usageLines(report: ConsumerReport): string[] {
  const lines: string[] = [];
  for (const u of report.usage) {
    lines.push(`${u.document}: ${u.used} of ${u.total} operations used (${percent(u.percent)})`);
    for (const o of u.operations)
      lines.push(`  ${o.operation}: ${o.requests} requests; answers met ${o.exercised.join(', ') || 'none'} of ${o.documented.join(', ')}`);
  }
  return lines;
}

export function consumerSummary(report: ConsumerReport): string {
  const lines = [`# ${report.verdict}`, ''];
  if (report.defects.length) {
    lines.push('## Defects', '', '| round | defect | what happened |', '|---|---|---|');
    for (const d of report.defects)
      lines.push(`| ${d.round} | ${d.severity === 'double-payment' ? '**double payment**' : cell(d.kind)} | ${cell(d.message)} |`);
    lines.push('');
  }
  if (report.runs.length) {
    lines.push(
      '## Runs of the command',
      '',
      `\`${cell(report.options.command.join(' '))}\` against the ${report.target.api} (${report.target.version}):`,
      '',
    );
    lines.push('| run | exit | requests | seconds |', '|---|---:|---:|---:|');
    for (const r of report.runs)
      lines.push(`| ${r.round} | ${r.exitCode ?? r.signal ?? '-'}${r.error ? ` (${cell(r.error)})` : ''} | ${r.requests} | ${r.seconds.toFixed(1)} |`);
    lines.push('');
  }
  if (report.usage.length) {
    lines.push('## Coverage', '', '| operation | requests | documented answers met |', '|---|---:|---|');
    for (const u of report.usage) {
      lines.push(`| **${u.document}: ${u.used} of ${u.total} operations used (${percent(u.percent)})** | | |`);
      for (const o of u.operations)
        lines.push(`| \`${o.operation}\` | ${o.requests} | ${o.exercised.join(', ') || 'none'} of ${o.documented.join(', ')} |`);
    }
    if (report.options.minCoverage !== null) lines.push('', `Minimum: ${percent(report.options.minCoverage)} of the operations used.`);
  }
  lines.push(...suiteSections(report));
  return `${lines.join('\n')}\n`;
}

export function printConsumerReport(report: ConsumerReport, reportDir: string, print: (line: string) => void): void {
  print(report.verdict);
  for (const d of report.defects) print(`  ${d.severity === 'double-payment' ? 'DOUBLE PAYMENT' : 'defect'} (${d.round}): ${d.kind}: ${d.message}`);
  for (const testsuite of report.testsuites) {
    const failed = testsuite.testcases.filter((t) => t.status === 'failed');
    print(
      `[${failed.length ? 'FAIL' : 'ok'}] ${testsuite.name}: ${testsuite.testcases.length - failed.length} of ${testsuite.testcases.length} testcases passed`,
    );
    for (const note of testsuite.notes) print(`  ${note}`);
    for (const testcase of failed) {
      print(`  failed: ${testcase.name}`);
      for (const failure of testcase.failures.slice(0, 1)) print(`    ${failureText(failure).replaceAll('\n', '\n    ')}`);
    }
  }
  for (const { suite, message } of report.errors) print(`could not run (${suite}): ${firstLine(message)}`);
  if (report.usage.length) print(`coverage:\n  ${usageLines(report).join('\n  ')}`);
  print(`junit.xml, summary.md and report.json in ${reportDir}`);
}
