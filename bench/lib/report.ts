// The shape every scenario returns, and its rendering as Markdown (printed and written to
// bench/results.md).

export interface Table {
  caption?: string;
  headers: string[];
  rows: string[][];
}

export interface Target {
  name: string;
  /** The measured value, formatted. */
  value: string;
  /** The goal, formatted (e.g. "≥ 50 %"). */
  goal: string;
  /** null: no verdict (a figure reported without a goal, or not measured). */
  met: boolean | null;
}

export interface Section {
  title: string;
  /** What was measured, in a sentence or two. */
  about: string;
  tables: Table[];
  targets: Target[];
  notes: string[];
  seconds?: number;
}

const escapeCell = (cell: string): string => cell.replace(/\|/g, '\\|').replace(/\n/g, ' ');

export function renderTable(table: Table): string {
  const lines: string[] = [];
  if (table.caption) lines.push(`**${table.caption}**`, '');
  lines.push(`| ${table.headers.map(escapeCell).join(' | ')} |`);
  lines.push(`|${table.headers.map((_, i) => (i === 0 ? '---' : '---:')).join('|')}|`);
  for (const row of table.rows) lines.push(`| ${row.map(escapeCell).join(' | ')} |`);
  return lines.join('\n');
}

export function verdict(target: Target): string {
  if (target.met === null) return target.goal === 'report' ? 'reported' : 'not measured';
  return target.met ? 'met' : 'MISSED';
}

export function renderTargets(targets: Target[]): string {
  return renderTable({
    headers: ['target', 'measured', 'goal', 'verdict'],
    rows: targets.map((t) => [t.name, t.value, t.goal, verdict(t)]),
  });
}

export function renderSection(section: Section, index: number): string {
  const parts = [`## ${index}. ${section.title}`, '', section.about];
  for (const table of section.tables) parts.push('', renderTable(table));
  if (section.targets.length > 0) parts.push('', renderTargets(section.targets));
  if (section.notes.length > 0) parts.push('', ...section.notes.map((note) => `- ${note}`));
  if (section.seconds !== undefined) parts.push('', `_Scenario wall time: ${section.seconds.toFixed(0)} s._`);
  return parts.join('\n');
}
