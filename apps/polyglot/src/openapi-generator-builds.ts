// Building what openapi-generator wrote, the way each language's users do: tsc for typescript-fetch, pip into a
// virtualenv for python, Maven for java; and the smoke program of each (smoke/openapi-generator/<generator>) built
// against it.
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, delimiter, join } from 'node:path';
import { ensureCachedVenv, withLock } from '@aggregation/contract-tests/cached-venv';
import { mavenOptions, outputDir, outputRoot, smokeDir } from './openapi-generator.ts';
import { artifactsDir, clientsDir, packageDir } from './paths.ts';
import { linkVenv, toolsCacheDir } from './python.ts';
import { run } from './run.ts';
import { hashFiles, isUpToDateOrKept, markUpToDateAndKeep, stampFile } from './stamp.ts';
import { shortRunMavenEnv } from './toolchain.ts';

const require = createRequire(import.meta.url);
/** The `typescript` package's tsc, as the generated TypeScript clients' users run it (not the workspace's own checker). */
export const tsc = require.resolve('typescript/bin/tsc');
/** What tsc makes of the same sources changes with the compiler and the Node.js types the smoke program reads. */
const compilerFiles = [require.resolve('typescript/package.json'), require.resolve('@types/node/package.json')];
const typescriptFetchSmoke = smokeDir('typescript-fetch');
/** Where the check's stamp is kept: the check makes nothing else. */
const typescriptFetchChecked = join(artifactsDir, 'openapi-generator', 'typescript-fetch-checked');
const typescriptFetchSmokeOut = join(artifactsDir, 'openapi-generator', 'typescript-fetch');

/**
 * What the typescript-fetch check and smoke build depend on: the generation, the compiler, and the smoke program's
 * sources (its own, its tsconfig, and the shared scenario it imports).
 */
export const typescriptFetchInputs = (generation = stampFile(outputRoot)) => [
  generation,
  ...compilerFiles,
  join(typescriptFetchSmoke, 'smoke.ts'),
  join(typescriptFetchSmoke, 'tsconfig.json'),
  join(packageDir, 'smoke', 'typescript', 'scenario.ts'),
];
const typescriptFetchHash = () => hashFiles(typescriptFetchInputs());

/**
 * tsc on the generated project, with the tsconfig.json it comes with: once per hash of typescriptFetchInputs, like the
 * Java client's compile. A clean checkout finds the stamp of a check that passed on the same inputs in the cache.
 */
export async function compileTypescriptFetch(): Promise<void> {
  const hash = typescriptFetchHash();
  if (isUpToDateOrKept(typescriptFetchChecked, hash)) return;
  await run(process.execPath, [tsc, '-p', join(outputDir('typescript-fetch'), 'tsconfig.json'), '--noEmit']);
  mkdirSync(typescriptFetchChecked, { recursive: true });
  markUpToDateAndKeep(typescriptFetchChecked, hash, []);
}

/**
 * Compiles the smoke program with the generated sources it imports, once per hash (kept in the cache as the check
 * is); returns the program to run with Node.
 */
export async function buildTypescriptFetchSmoke(): Promise<string> {
  const outDir = typescriptFetchSmokeOut;
  const program = join(outDir, 'apps', 'polyglot', 'smoke', 'openapi-generator', 'typescript-fetch', 'smoke.js');
  const hash = typescriptFetchHash();
  if (isUpToDateOrKept(outDir, hash) && existsSync(program)) return program;
  rmSync(outDir, { recursive: true, force: true });
  await run(process.execPath, [tsc, '-p', join(typescriptFetchSmoke, 'tsconfig.json'), '--outDir', outDir]);
  // The repository is an ES module package; the compiled program and client are CommonJS.
  writeFileSync(join(outDir, 'package.json'), '{ "type": "commonjs" }\n');
  markUpToDateAndKeep(outDir, hash);
  return program;
}

export const pythonConstraints = join(packageDir, 'openapi-generator', 'python-constraints.txt');
const pythonVenv = join(clientsDir, '.venv-openapi-generator');
export const pythonVenvPython = join(pythonVenv, 'bin', 'python');

/**
 * The generated package pip-installed into a virtualenv of its own, its requirements held to python-constraints.txt.
 * The virtualenv is kept in the user's cache for this generation, these constraints and this Python, and linked from
 * clients/.venv-openapi-generator (linkVenv): installed again only when one of them changed. Returns its python.
 */
export async function installPythonClient(python: string): Promise<string> {
  const generated = outputDir('python');
  const { dir } = await ensureCachedVenv({
    python,
    cacheDir: toolsCacheDir(),
    name: 'openapi-generator-python',
    // Wheels only for what it requires (the generated package itself is built): nothing compiles from source.
    pipArgs: ['--only-binary=:all:', '-c', pythonConstraints],
    packages: [generated],
    key: `${readFileSync(stampFile(outputRoot), 'utf8')}\0${readFileSync(pythonConstraints, 'utf8')}`,
  });
  linkVenv(dir, pythonVenv);
  return pythonVenvPython;
}

/** Imports every module of the installed package, so that no module only fails once used. */
export const importEveryModule = [
  'import importlib, pkgutil, aggregation_openapi_client as package',
  'names = [m.name for m in pkgutil.walk_packages(package.__path__, package.__name__ + ".")]',
  'for name in names: importlib.import_module(name)',
  'print(len(names), "modules")',
].join('\n');

/** What the compiled Java client is kept for: the generation, and the JDK that compiled it (an older one cannot run it). */
export const javaClientHash = (jdkVersion: string, generation = stampFile(outputRoot)) => hashFiles([generation], { extra: [jdkVersion] });

/**
 * `mvn compile` of the generated Maven project, once per generation and JDK (`Toolchain.jdkVersion`; test files of this
 * package that need it run at the same time: they take turns through a lock, and the second finds it compiled);
 * returns the classpath to run code against it.
 */
export async function compileJavaClient(mvn: string, jdkVersion: string): Promise<string> {
  const project = outputDir('java');
  const target = join(project, 'target');
  const classpathFile = join(target, 'classpath.txt');
  const classpath = () => [join(target, 'classes'), readFileSync(classpathFile, 'utf8').trim()].join(delimiter);
  mkdirSync(target, { recursive: true });
  return withLock(join(target, '.compile-lock'), async () => {
    const hash = javaClientHash(jdkVersion);
    // A clean checkout copies back the classes kept in the cache for the same generation and JDK (stamp.ts).
    if (isUpToDateOrKept(target, hash) && existsSync(classpathFile)) return classpath();
    await run(mvn, [...mavenOptions, 'compile', 'dependency:build-classpath', '-Dmdep.includeScope=compile', `-Dmdep.outputFile=${classpathFile}`], {
      cwd: project,
      env: shortRunMavenEnv(),
    });
    // What running code against it needs: the classes, and the classpath of Maven's local repository.
    markUpToDateAndKeep(target, hash, ['classes', basename(classpathFile)]);
    return classpath();
  });
}
