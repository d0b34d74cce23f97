// Writes a report's files into the report directory: junit.xml, summary.md (also appended to $GITHUB_STEP_SUMMARY,
// which GitHub Actions shows on the run's page) and report.json. Every mode writes through here.
import { appendFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { junitXml } from './junit.ts';
import type { ReportCore } from './types.ts';

export async function writeReports(report: ReportCore, summary: string, dir: string): Promise<void> {
  await writeFile(join(dir, 'junit.xml'), junitXml(report));
  await writeFile(join(dir, 'summary.md'), summary);
  await writeFile(join(dir, 'report.json'), `${JSON.stringify(report, null, 2)}\n`);
  if (process.env.GITHUB_STEP_SUMMARY) await appendFile(process.env.GITHUB_STEP_SUMMARY, summary);
}
