// Programs of the docs (samples, guides' code blocks) built against the released client of their language, each
// language in one build: every Go program is a main package of one module that uses aggregation.example/client (the
// generated client with its layer), built by one `go build`; the Java programs of a group are compiled by one javac
// against openapi-generator's compiled client; Python programs import the assembled aggregation_client package.
import { mkdirSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { goClientModule } from '../../src/go.ts';
import { assembleGoModule } from '../../src/go-module.ts';
import { artifactsDir } from '../../src/paths.ts';
import { assemblePythonPackage } from '../../src/python-package.ts';
import { run } from '../../src/run.ts';

/** The package `aggregation_client` as released, in a folder of its own: put it on PYTHONPATH. */
export function pythonPackagePath(name: string): string {
  return assemblePythonPackage(join(artifactsDir, name, 'python-package'));
}

/** Builds every Go program (name: source) in one module; resolves to the binary of each name. */
export async function buildGoPrograms(go: string, name: string, programs: Readonly<Record<string, string>>): Promise<Record<string, string>> {
  const root = join(artifactsDir, name, 'go');
  rmSync(root, { recursive: true, force: true });
  const module = assembleGoModule(join(root, 'client'));
  const programsDir = join(root, 'programs');
  mkdirSync(programsDir, { recursive: true });
  writeFileSync(
    join(programsDir, 'go.mod'),
    `module programs\n\ngo 1.25\n\nrequire ${goClientModule} v0.0.0\n\nreplace ${goClientModule} => ${module}\n`,
  );
  for (const [program, source] of Object.entries(programs)) {
    mkdirSync(join(programsDir, program), { recursive: true });
    writeFileSync(join(programsDir, program, 'main.go'), source);
  }
  await run(go, ['mod', 'tidy'], { cwd: programsDir });
  const bin = join(root, 'bin');
  await run(go, ['build', '-o', `${bin}/`, './...'], { cwd: programsDir });
  return Object.fromEntries(Object.keys(programs).map((program) => [program, join(bin, program)]));
}

/** The class a Java program declares (`public class ListAccounts`). */
export function javaClassOf(source: string): string {
  const match = /public\s+class\s+(\w+)/.exec(source);
  if (!match) throw new Error(`no public class in:\n${source}`);
  return match[1]!;
}

/**
 * Compiles a group of Java programs (their classes must differ) with one javac on the client's classpath; resolves to
 * the classpath that runs them (`java -cp <it> <class>`).
 */
export async function compileJavaPrograms(java: string, classpath: string, name: string, sources: readonly string[]): Promise<string> {
  const root = join(artifactsDir, name);
  rmSync(root, { recursive: true, force: true });
  const src = join(root, 'src');
  mkdirSync(src, { recursive: true });
  const files = sources.map((source) => {
    const file = join(src, `${javaClassOf(source)}.java`);
    writeFileSync(file, source);
    return file;
  });
  const classes = join(root, 'classes');
  const javac = join(dirname(realpathSync(java)), 'javac');
  await run(javac, ['-d', classes, '-cp', classpath, ...files]);
  return `${classes}:${classpath}`;
}
