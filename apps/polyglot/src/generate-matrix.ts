// `npm run generate:clients` and `npm run test:generators`: every target of matrix.yaml generated, compiled and
// smoke-tested against a sandbox server started here, then clients/matrix.json. Ends with `N passed, N failed` (of
// the targets), and exits 1 when a target failed (or, under CI=true, could not run for a missing tool).
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { startServer } from '@aggregation/server';
import { type EnumNames, enumNameProblems, readEnumNames } from './enum-names.ts';
import { buildOf, matrixReport, readTargets, type TargetDefinition } from './matrix.ts';
import { clientsDir } from './paths.ts';
import { RunError } from './run.ts';
import { countSteps, runSmoke, smokeSteps } from './smoke.ts';
import { findToolchain, missingTool } from './toolchain.ts';

/** One row of clients/matrix.json. */
export type MatrixEntry = {
  generator: string;
  version: string;
  language: string;
  document: string;
  generated: boolean;
  /** The names its client gives the values of the checked enums, and whether each is its language's (matrix.yaml). */
  enumNames?: { names: EnumNames; wrong: string[] };
  compiled: boolean;
  smoke: { passed: number; failed: number };
  target: string;
  seconds: number;
  /** Why a stage failed, or which tool is missing. */
  problem?: string;
};

const only = process.argv.slice(2).filter((arg) => !arg.startsWith('-'));
const targets = readTargets().filter((target) => only.length === 0 || only.includes(target.name));
const toolchain = findToolchain();
const logsDir = join(clientsDir, 'matrix-logs');
mkdirSync(logsDir, { recursive: true });

const describe = (error: unknown) =>
  error instanceof RunError ? error.message : error instanceof Error ? (error.stack ?? error.message) : String(error);

async function runTarget(target: TargetDefinition, baseUrl: string): Promise<MatrixEntry> {
  const started = performance.now();
  const entry: MatrixEntry = {
    generator: target.generator,
    version: target.version,
    language: target.language,
    document: target.document,
    generated: false,
    compiled: false,
    smoke: { passed: 0, failed: Object.keys(smokeSteps).length },
    target: target.name,
    seconds: 0,
  };
  const finish = (problem?: string) => {
    entry.seconds = Math.round((performance.now() - started) / 100) / 10;
    // The log of a failure: a target that passed leaves none (nor an earlier run's).
    rmSync(join(logsDir, `${target.name}.log`), { force: true });
    if (problem) {
      entry.problem = problem.split('\n')[0];
      writeFileSync(join(logsDir, `${target.name}.log`), problem);
    }
    return entry;
  };
  const missing = target.needs.map((tool) => missingTool(tool, toolchain)).find(Boolean);
  if (missing) return finish(`missing tool: ${missing}`);
  const build = buildOf(target, toolchain);
  try {
    await build.generate();
    entry.generated = true;
    const names = readEnumNames(target);
    entry.enumNames = { names, wrong: enumNameProblems(target, names) };
    await build.compile();
    entry.compiled = true;
    const outcome = await runSmoke(await build.smoke(), baseUrl);
    entry.smoke = countSteps(outcome.steps);
    writeFileSync(join(logsDir, `${target.name}.smoke.log`), outcome.output);
    if (entry.enumNames.wrong.length) return finish(`enum names: ${entry.enumNames.wrong.join('; ')}`);
    return finish(entry.smoke.failed > 0 ? `smoke: ${outcome.output}` : undefined);
  } catch (error) {
    return finish(describe(error));
  }
}

// No webhook deliveries: nothing may leave this machine.
const server = await startServer({ port: 0, hostname: '127.0.0.1', webhooks: { autostart: false } });
const entries: MatrixEntry[] = [];
try {
  // One target at a time: the compilers each take the machine's cores.
  for (const target of targets) {
    const entry = await runTarget(target, server.url);
    entries.push(entry);
    const outcome = entry.problem ? `FAIL ${entry.problem}` : 'ok';
    console.log(
      `${target.name.padEnd(36)} generated ${entry.generated ? 'yes' : 'no '} compiled ${entry.compiled ? 'yes' : 'no '} ` +
        `names ${entry.enumNames ? (entry.enumNames.wrong.length ? 'WRONG' : 'ok   ') : '-    '} ` +
        `smoke ${entry.smoke.passed}/${entry.smoke.passed + entry.smoke.failed} ${String(entry.seconds).padStart(6)} s  ${outcome}`,
    );
  }
} finally {
  await server.close();
}

// A run of some targets keeps the last results of the others.
const kept = only.length > 0 && existsSync(matrixReport) ? (JSON.parse(readFileSync(matrixReport, 'utf8')) as MatrixEntry[]) : [];
const order = readTargets().map((target) => target.name);
const report = [...kept.filter((entry) => !only.includes(entry.target) && order.includes(entry.target)), ...entries].sort(
  (a, b) => order.indexOf(a.target) - order.indexOf(b.target),
);
writeFileSync(matrixReport, `${JSON.stringify(report, null, 2)}\n`);
const ok = (entry: MatrixEntry) => entry.generated && entry.compiled && entry.smoke.failed === 0 && entry.enumNames?.wrong.length === 0;
const skipped = entries.filter((entry) => entry.problem?.startsWith('missing tool') && process.env.CI !== 'true');
const failed = entries.filter((entry) => !ok(entry) && !skipped.includes(entry));
console.log(`${matrixReport}: ${report.length} targets in ${new Set(report.map((entry) => entry.language)).size} languages (logs in ${logsDir})`);
console.log(`generators: ${entries.filter(ok).length} passed, ${failed.length} failed${skipped.length ? `, ${skipped.length} skipped` : ''}`);
process.exitCode = failed.length > 0 ? 1 : 0;
