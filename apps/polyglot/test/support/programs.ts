// Programs of the docs (samples, guides' code blocks) run against the released client of their language: shell
// scripts one `sh -e` each (a shell starts in a millisecond), and all the other programs of a language in one
// process (./in-one-process.ts): TypeScript imported by one Node process, Python run by
// one interpreter with the assembled aggregation_client package, Go built into one program with
// aggregation.example/client (the generated client with its layer), Java compiled and run in one JVM against
// openapi-generator's compiled client.
import { cpSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { goClientModule } from '../../src/go.ts';
import { assembleGoModule } from '../../src/go-module.ts';
import { artifactsDir } from '../../src/paths.ts';
import { assemblePythonPackage } from '../../src/python-package.ts';
import { RunError, run } from '../../src/run.ts';
import { shortRunJvmOptions } from '../../src/toolchain.ts';
import { type InOneProcessOptions, type Outcome, type Program, runInOneProcess } from './in-one-process.ts';

const runnersDir = fileURLToPath(new URL('runners/', import.meta.url));

/** The package `aggregation_client` as released, in a folder of its own: put it on PYTHONPATH. */
export function pythonPackagePath(name: string): string {
  return assemblePythonPackage(join(artifactsDir, name, 'python-package'));
}

/** A program of a language: its name, its source as the docs show it, and its environment. */
export type Source = { name: string; source: string; env: Record<string, string> };

type Run = Omit<InOneProcessOptions, 'dir' | 'plan'>;

/**
 * Makes a program of each item, one after another: each makes an enrollment on the sandbox server, which runs in the
 * test's own process, and hundreds of requests at once only queue there (and outlive keep-alive connections).
 */
export async function programsOf<T>(items: readonly T[], make: (item: T) => Promise<Source>): Promise<Source[]> {
  const programs: Source[] = [];
  for (const item of items) programs.push(await make(item));
  return programs;
}

/** A fresh folder of artifacts/ for one run of a language's programs. */
function freshDir(name: string): string {
  const dir = join(artifactsDir, name);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  return dir;
}

/** Writes each program to its file (inside the repository, so that imports resolve as in a reader's project). */
function writeSources(dir: string, programs: readonly Source[], fileOf: (program: Source) => string): Program[] {
  return programs.map((program) => {
    const file = join(dir, fileOf(program));
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, program.source);
    return { name: program.name, env: program.env, file };
  });
}

/** Shell scripts (curl), each run by `sh -e` in a process of its own, all at once. */
export async function runShellPrograms(name: string, programs: readonly Source[], options: Run): Promise<Map<string, Outcome>> {
  const dir = freshDir(name);
  const planned = writeSources(dir, programs, (program) => `${program.name}.sh`);
  const outcomes = await Promise.all(
    planned.map(async (program): Promise<[string, Outcome]> => {
      try {
        const { stdout, stderr } = await run('sh', ['-e', program.file as string], { env: { ...options.env, ...program.env } });
        return [program.name, { ok: true, output: stdout, error: stderr }];
      } catch (error) {
        if (!(error instanceof RunError)) throw error;
        return [program.name, { ok: false, output: error.stdout, error: error.message }];
      }
    }),
  );
  return new Map(outcomes);
}

/** TypeScript programs, each imported from its file by one Node process. */
export function runTypescriptPrograms(name: string, programs: readonly Source[], options: Run): Promise<Map<string, Outcome>> {
  const dir = freshDir(name);
  const planned = writeSources(dir, programs, (program) => `${program.name}.ts`);
  return runInOneProcess(process.execPath, [join(runnersDir, 'programs.ts')], planned, { ...options, dir });
}

/** Python programs, each run as __main__ by one interpreter (`python`, with aggregation_client on its path). */
export function runPythonPrograms(python: string, name: string, programs: readonly Source[], options: Run): Promise<Map<string, Outcome>> {
  const dir = freshDir(name);
  const planned = writeSources(dir, programs, (program) => `${program.name}.py`);
  return runInOneProcess(python, [join(runnersDir, 'programs.py')], planned, { ...options, dir });
}

/** A Go program's source as a package of the runner: `package main` and `func main()` renamed, nothing else. */
export function asGoPackage(source: string): string {
  const rewritten = source.replace(/^package main$/m, 'package program').replace(/^func main\(\) \{$/m, 'func Main() {');
  if (!/^package program$/m.test(rewritten) || !/^func Main\(\) \{$/m.test(rewritten)) {
    throw new Error(`not a Go program (package main with func main() {):\n${source}`);
  }
  return rewritten;
}

/** Go programs, built by one `go build` into one runner with aggregation.example/client, which calls each in turn. */
export async function runGoPrograms(go: string, name: string, programs: readonly Source[], options: Run): Promise<Map<string, Outcome>> {
  const dir = freshDir(name);
  const module = assembleGoModule(join(dir, 'client'));
  const runner = join(dir, 'runner');
  mkdirSync(runner, { recursive: true });
  writeFileSync(join(runner, 'go.mod'), `module runner\n\ngo 1.25\n\nrequire ${goClientModule} v0.0.0\n\nreplace ${goClientModule} => ${module}\n`);
  cpSync(join(runnersDir, 'programs.go'), join(runner, 'main.go'));
  const imports: string[] = [];
  const entries: string[] = [];
  programs.forEach((program, index) => {
    mkdirSync(join(runner, program.name), { recursive: true });
    writeFileSync(join(runner, program.name, 'main.go'), asGoPackage(program.source));
    imports.push(`\tp${index} "runner/${program.name}"`);
    entries.push(`\t${JSON.stringify(program.name)}: p${index}.Main,`);
  });
  writeFileSync(
    join(runner, 'registry.go'),
    `// Written by the tests: every program this runner can call, by name.\npackage main\n\nimport (\n${imports.join('\n')}\n)\n\nvar programs = map[string]func(){\n${entries.join('\n')}\n}\n`,
  );
  await run(go, ['mod', 'tidy'], { cwd: runner });
  const binary = join(dir, 'bin', 'runner');
  await run(go, ['build', '-o', binary, '.'], { cwd: runner });
  const planned = programs.map((program) => ({ name: program.name, env: program.env }));
  return runInOneProcess(binary, [], planned, { ...options, dir });
}

/** The class a Java program declares (`public class ListAccounts`). */
export function javaClassOf(source: string): string {
  const match = /public\s+class\s+(\w+)/.exec(source);
  if (!match) throw new Error(`no public class in:\n${source}`);
  return match[1]!;
}

/**
 * Java programs in groups (the classes of a group must differ; two groups may declare the same ones), compiled by the
 * JDK's compiler and run in one JVM on the client's `classpath`, each class's `main` in turn.
 */
export function runJavaPrograms(
  java: string,
  classpath: string,
  name: string,
  groups: Readonly<Record<string, readonly Source[]>>,
  options: Run,
): Promise<Map<string, Outcome>> {
  const dir = freshDir(name);
  const plan: Record<string, { sources: string[]; classes: string }> = {};
  const planned: Program[] = [];
  for (const [group, programs] of Object.entries(groups)) {
    if (programs.length === 0) continue;
    const sources = writeSources(join(dir, group, 'src'), programs, (program) => `${javaClassOf(program.source)}.java`);
    plan[group] = { sources: sources.map((source) => source.file as string), classes: join(dir, group, 'classes') };
    for (const program of programs) planned.push({ name: program.name, env: program.env, group, className: javaClassOf(program.source) });
  }
  // The runner sets each program's environment in the map behind System.getenv, in a module the JDK keeps closed.
  const args = [...shortRunJvmOptions, '--add-opens', 'java.base/java.util=ALL-UNNAMED', '-cp', classpath, join(runnersDir, 'Programs.java')];
  return runInOneProcess(java, args, planned, { ...options, dir, plan: { groups: plan } });
}
