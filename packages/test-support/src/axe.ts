// axe-core in a page or a frame of Chromium (Playwright): its serious and critical findings, the ones the browser
// tests fail on. The source is evaluated, not added as a script element, so that a page whose Content-Security-Policy
// refuses inline scripts (the enrollment widget's frame) is checked as it is.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Frame, Page } from 'playwright-core';

let axeSource: string | undefined;

type Violation = { id: string; impact: string; targets: string[] };

/** axe-core's serious and critical violations in `target` as it is now, each as `<impact> <rule>: <first targets>`. */
export async function seriousViolations(target: Page | Frame): Promise<string[]> {
  axeSource ??= readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
  if (!(await target.evaluate(() => 'axe' in globalThis))) await target.evaluate(axeSource);
  const violations: Violation[] = await target.evaluate(async () => {
    const { axe } = globalThis as unknown as {
      axe: { run(context: Document): Promise<{ violations: { id: string; impact: string; nodes: { target: string[] }[] }[] }> };
    };
    const result = await axe.run(document);
    return result.violations.map((violation) => ({
      id: violation.id,
      impact: violation.impact,
      targets: violation.nodes.map((node) => node.target.join(' ')),
    }));
  });
  return violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => `${violation.impact} ${violation.id}: ${violation.targets.slice(0, 5).join(', ')}`);
}
