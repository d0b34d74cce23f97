// The guide "Generate a client" shows the generator matrix of apps/polyglot: each target's command (from its command
// line, or its openapi-generator configuration as flags), what it needs, its notes on options and workarounds, how its
// client writes an enum's value (matrix.yaml), and the last run's results with the names its client gave the values
// of the checked enums (clients/matrix.json, written by `npm run test:generators`). Without that file, as in a build
// before any run, the guide says where the results come from.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { packageDir } from './paths.ts';

/** In a guide, this comment becomes the matrix. */
export const generatorMatrixMarker = '<!-- generator-matrix -->';

const repoRoot = join(packageDir, '..', '..');
export const matrixDefinitions = join(repoRoot, 'apps', 'polyglot', 'matrix.yaml');
export const matrixResults = join(repoRoot, 'clients', 'matrix.json');

type Target = {
  name: string;
  generator: string;
  version: string;
  language: string;
  document: string;
  config?: string;
  command?: string;
  needs: string[];
  notes: string;
  enumValues?: { case: string; written: string; why: string };
};
type Definitions = { tools: Record<string, string>; targets: Target[] };
export type MatrixEntry = {
  target?: string;
  generator: string;
  language: string;
  generated: boolean;
  compiled: boolean;
  smoke: { passed: number; failed: number };
  /** The names the client gave each checked enum's values (by enum, then value), and what differed from its convention. */
  enumNames?: { names: Record<string, Record<string, string>>; wrong: string[] };
  problem?: string;
};

/** openapi-generator's configuration as the command-line flags that say the same (`gitHost` is `--git-host`). */
function openapiGeneratorCommand(target: Target): string {
  const { generatorName, inputSpec, outputDir, ...options } = parse(readFileSync(join(repoRoot, target.config!), 'utf8')) as Record<string, unknown>;
  const flags = Object.entries(options).map(([key, value]) => {
    const flag = `--${key.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`)}`;
    const text =
      value && typeof value === 'object'
        ? Object.entries(value)
            .map(([name, item]) => `${name}=${String(item)}`)
            .join(',')
        : String(value);
    return `${flag}=${text}`;
  });
  return [`java -jar openapi-generator-cli-${target.version}.jar generate -g ${generatorName} -i ${inputSpec} -o ${outputDir}`, ...flags].join(
    ' \\\n  ',
  );
}

/** The command that generates a target, from the repository's root. */
export function commandOf(target: Target): string {
  return target.config ? openapiGeneratorCommand(target) : target.command!;
}

function readResults(): MatrixEntry[] | undefined {
  return existsSync(matrixResults) ? (JSON.parse(readFileSync(matrixResults, 'utf8')) as MatrixEntry[]) : undefined;
}

const yesNo = (value: boolean) => (value ? 'yes' : 'no');
const cell = (text: string) => text.replaceAll('|', '\\|');

function resultsTable(targets: Target[], results: MatrixEntry[] | undefined): string {
  if (!results) {
    return [
      'The results are produced by `npm run test:generators`, which generates, compiles and smoke-tests every target and',
      'writes `clients/matrix.json`; these docs were built before any run, so they show the targets alone.',
    ].join('\n');
  }
  const passed = results.filter((entry) => entry.generated && entry.compiled && entry.smoke.failed === 0 && !entry.enumNames?.wrong.length).length;
  const namesOf = (entry: MatrixEntry) =>
    entry.enumNames ? (entry.enumNames.wrong.length ? `${entry.enumNames.wrong.length} differ` : 'as its language writes them') : '';
  const rows = targets.map((target) => {
    const entry = results.find((candidate) => candidate.target === target.name);
    if (!entry) return `| ${cell(target.generator)} | ${target.language} | not run | | | |`;
    const smoke = `${entry.smoke.passed}/${entry.smoke.passed + entry.smoke.failed}`;
    return `| ${cell(target.generator)} | ${target.language} | ${yesNo(entry.generated)} | ${namesOf(entry)} | ${yesNo(entry.compiled)} | ${smoke}${entry.problem ? ` (${cell(entry.problem)})` : ''} |`;
  });
  return [
    `The last run of \`npm run test:generators\`: ${passed} of ${results.length} targets generated, named enum values as their language does, compiled and passed every step.`,
    '',
    '| target | language | generated | enum names | compiled | smoke steps passed |',
    '|---|---|---|---|---|---|',
    ...rows,
  ].join('\n');
}

/**
 * How each target's client writes an enum's value: the convention each declares, and, after a run, the names its
 * generated client gave the values of the enums checked (those whose values another enum shares, `person` and
 * `pending`, and one beside them).
 */
function enumNamesSection(targets: Target[], results: MatrixEntry[] | undefined): string {
  const declared = targets
    .filter((target) => target.enumValues)
    .map((target) => `| ${cell(target.generator)} | \`${cell(target.enumValues!.written)}\` | ${target.enumValues!.case} |`);
  const lines = [
    'Each generator names the values of an enum as its language writes constants; the description names none for one',
    "language (the options below make each generator's names). `person` of `PayeeType`, as code writes it:",
    '',
    '| target | `person` of `PayeeType` | convention |',
    '|---|---|---|',
    ...declared,
  ];
  const named = targets.flatMap((target) => {
    const entry = results?.find((candidate) => candidate.target === target.name);
    return entry?.enumNames ? [{ target, names: entry.enumNames.names }] : [];
  });
  if (named.length === 0) return lines.join('\n');
  const enums = Object.keys(named[0]!.names);
  const header = enums.map(
    (type) =>
      `${type} ${Object.keys(named[0]!.names[type]!)
        .map((value) => `\`${value}\``)
        .join(', ')}`,
  );
  return [
    ...lines,
    '',
    "The names the last run's clients gave the values of the enums whose values another enum shares, and one beside them:",
    '',
    `| target | ${header.join(' | ')} |`,
    `|---|${enums.map(() => '---|').join('')}`,
    ...named.map(
      ({ target, names }) =>
        `| ${cell(target.generator)} | ${enums
          .map((type) =>
            Object.keys(named[0]!.names[type] ?? {})
              .map((value) => `\`${cell(names[type]?.[value] ?? '(none)')}\``)
              .join(', '),
          )
          .join(' | ')} |`,
    ),
  ].join('\n');
}

/** The guide's matrix, from matrix.yaml and, when a run wrote it, clients/matrix.json. */
export function generatorMatrix(): string {
  return renderGeneratorMatrix(matrixDefinitions, readResults());
}

/** The Markdown of the matrix: the results, then each target with its command, what it needs and its notes. */
export function renderGeneratorMatrix(definitionsFile: string, results: MatrixEntry[] | undefined): string {
  const { tools, targets } = parse(readFileSync(definitionsFile, 'utf8')) as Definitions;
  const sections = targets.map((target) =>
    [
      `### ${target.generator}`,
      '',
      `${target.language}, version ${target.version}, from \`${target.document}\`.`,
      '',
      '```sh display',
      commandOf(target),
      '```',
      '',
      `What it needs beside Node.js: ${target.needs.map((tool) => tools[tool] ?? tool).join('; ') || 'nothing'}.`,
      '',
      target.notes.trim(),
      ...(target.enumValues
        ? [
            '',
            `Enum values: \`${target.enumValues.written}\` is \`person\` of \`PayeeType\` (${target.enumValues.case}): ${target.enumValues.why.trim()}.`,
          ]
        : []),
    ].join('\n'),
  );
  return [resultsTable(targets, results), '', enumNamesSection(targets, results), '', ...sections.flatMap((section) => [section, ''])]
    .join('\n')
    .trimEnd();
}
