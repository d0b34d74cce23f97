// The generator matrix (matrix.yaml): each target generated, compiled the way its language compiles, and its smoke
// program (the scenario of smoke.ts) run against the sandbox server. What each target does beyond its definition is
// here, one build per target; the generators' caches and the builds' outputs stay under clients/ between runs.
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { delimiter, dirname, join } from 'node:path';
import { parse } from 'yaml';
import type { EnumCase } from './enum-names.ts';
import { generateGoClient } from './go.ts';
import { cacheDir, configDir, generateFromConfig, generateWithOpenapiGenerator, mavenOptions, readConfig, smokeDir } from './openapi-generator.ts';
import {
  buildTypescriptFetchSmoke,
  compileJavaClient,
  compileTypescriptFetch,
  importEveryModule,
  installPythonClient,
  tsc,
} from './openapi-generator-builds.ts';
import { artifactsDir, clientsDir, packageDir, pythonClientDir, repoRoot } from './paths.ts';
import { ensureVenv, venvBin, venvEnv, venvPython } from './python.ts';
import { run } from './run.ts';
import type { SmokeCommand } from './smoke.ts';
import { hashFiles, isUpToDate, markUpToDate, stampFile } from './stamp.ts';
import type { Tool, Toolchain } from './toolchain.ts';

/** One target of matrix.yaml. */
export type TargetDefinition = {
  name: string;
  generator: string;
  version: string;
  language: string;
  document: string;
  /** openapi-generator's configuration file, or else `command`: the generator's command line. */
  config?: string;
  command?: string;
  needs: Tool[];
  notes: string;
  /** How its client writes an enum's value (checked by src/enum-names.ts against the generated sources). */
  enumValues: { case: EnumCase; written: string; why: string };
};

export const matrixDefinitions = join(packageDir, 'matrix.yaml');
export const matrixReport = join(clientsDir, 'matrix.json');

export function readTargets(): TargetDefinition[] {
  return (parse(readFileSync(matrixDefinitions, 'utf8')) as { targets: TargetDefinition[] }).targets;
}

/** How one target is generated, compiled and smoke-tested, with the tools it needs found. */
export type Build = {
  generate(): Promise<unknown>;
  compile(): Promise<unknown>;
  smoke(): Promise<SmokeCommand>;
};

const bin = (name: string) => join(artifactsDir, 'bin', name);
const matrixSmokeDir = (name: string) => join(packageDir, 'smoke', name);

/** The command line of matrix.yaml, its first word replaced by the pinned program that runs it here. */
function commandOf(target: TargetDefinition, programs: Record<string, [string, ...string[]]>, cwd = repoRoot) {
  const [program, ...words] = target.command!.split(' ');
  // `npx <package> ...`: the package's own bin, installed by npm ci, takes the rest.
  const args = program === 'npx' ? words.slice(1) : words;
  const [file, ...prefix] = programs[program!] ?? [program!];
  return run(file, [...prefix, ...args], { cwd, env: venvEnv() });
}

/** A generation by command, skipped when nothing it comes from changed. */
async function stamped(outputDir: string, inputs: string[], generate: () => Promise<unknown>): Promise<void> {
  const hash = hashFiles([...inputs, matrixDefinitions]);
  if (isUpToDate(outputDir, hash)) return;
  // What an earlier generation wrote must not outlive it (and some generators refuse an existing directory).
  rmSync(outputDir, { recursive: true, force: true });
  await generate();
  mkdirSync(outputDir, { recursive: true });
  markUpToDate(outputDir, hash);
}

/** A TypeScript smoke program compiled with the client it imports (its tsconfig.json includes both). */
async function buildTypescriptSmoke(name: string, smoke: string): Promise<string> {
  const outDir = join(artifactsDir, name);
  await run(process.execPath, [tsc, '-p', join(smoke, 'tsconfig.json'), '--outDir', outDir]);
  // The repository is an ES module package; the compiled program and client are CommonJS.
  writeFileSync(join(outDir, 'package.json'), '{ "type": "commonjs" }\n');
  return join(outDir, 'apps', 'polyglot', 'smoke', ...smoke.slice(join(packageDir, 'smoke').length + 1).split('/'), 'smoke.js');
}

/** A Go smoke module built into one binary, the client it replaces compiled with it. */
async function buildGoSmoke(go: string, name: string, smoke: string): Promise<string> {
  await run(go, ['build', '-o', bin(name), '.'], { cwd: smoke });
  return bin(name);
}

/** Every PHP file under `dir`. */
function phpFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.php'))
    .map((file) => join(dir, file));
}

/**
 * What the Kotlin client's build is kept for: its generation (in `clientDir`), the smoke project's pom and program, and
 * the JDK that compiled them (an older one cannot run them).
 */
export function kotlinBuildHash(clientDir: string, jdkVersion: string): string {
  const project = smokeDir('kotlin');
  return hashFiles([stampFile(clientDir), join(project, 'pom.xml'), join(project, 'src', 'Smoke.kt')], { extra: [jdkVersion] });
}

export function buildOf(target: TargetDefinition, toolchain: Toolchain): Build {
  // The runner checked `needs` first: the tools a build uses are there.
  const { go, java, jdkVersion, maven, python, cargo, ruby, php } = toolchain as { [K in keyof Toolchain]: NonNullable<Toolchain[K]> };
  // The workspace's own three clients (openapi-generator/*.yaml) are generated together, as its tests expect; the
  // matrix's others (openapi-generator/matrix/*.yaml) one by one.
  const openapiGenerator = () =>
    dirname(join(repoRoot, target.config!)) === configDir
      ? generateWithOpenapiGenerator(java, maven)
      : generateFromConfig(java, maven, join(repoRoot, target.config!));
  const outputDir = () => readConfig(join(repoRoot, target.config!)).outputDir;
  switch (target.name) {
    case 'openapi-generator-typescript-fetch':
      return {
        generate: openapiGenerator,
        compile: compileTypescriptFetch,
        smoke: async () => ({ file: process.execPath, args: [await buildTypescriptFetchSmoke()] }),
      };
    case 'openapi-generator-typescript-axios':
      return {
        generate: openapiGenerator,
        compile: () => run(process.execPath, [tsc, '-p', join(outputDir(), 'tsconfig.json'), '--noEmit']),
        smoke: async () => ({ file: process.execPath, args: [await buildTypescriptSmoke(target.name, smokeDir('typescript-axios'))] }),
      };
    case 'hey-api-openapi-ts': {
      const output = join(clientsDir, 'hey-api');
      const smoke = matrixSmokeDir('hey-api');
      let program: Promise<string> | undefined;
      const build = () => (program ??= buildTypescriptSmoke(target.name, smoke));
      return {
        generate: () =>
          stamped(output, [join(repoRoot, target.document)], () =>
            commandOf(target, { npx: [process.execPath, join(repoRoot, 'node_modules', '.bin', 'openapi-ts')] }),
          ),
        // It writes no project of its own: tsc compiles it with the program that imports it.
        compile: build,
        smoke: async () => ({ file: process.execPath, args: [await build()] }),
      };
    }
    case 'openapi-generator-python':
      return {
        generate: openapiGenerator,
        compile: async () => run(await installPythonClient(python), ['-c', importEveryModule]),
        smoke: async () => ({ file: await installPythonClient(python), args: [join(smokeDir('python'), 'smoke.py')] }),
      };
    case 'openapi-python-client':
      return {
        generate: async () => {
          await ensureVenv(python);
          await stamped(
            pythonClientDir,
            [join(repoRoot, target.document), join(packageDir, 'openapi-python-client.yaml'), join(packageDir, 'requirements.txt')],
            () => commandOf(target, { 'openapi-python-client': [join(venvBin, 'openapi-python-client')] }),
          );
        },
        compile: () =>
          run(venvPython, ['-c', importEveryModule.replace('aggregation_openapi_client', 'aggregation_client')], {
            env: venvEnv({ PYTHONPATH: pythonClientDir }),
          }),
        smoke: async () => ({ file: venvPython, args: [join(packageDir, 'smoke', 'python', 'smoke.py')], env: { PYTHONPATH: pythonClientDir } }),
      };
    case 'openapi-generator-java': {
      let classpath: Promise<string> | undefined;
      const compile = () => (classpath ??= compileJavaClient(maven, jdkVersion));
      return {
        generate: openapiGenerator,
        compile,
        // The source launcher compiles and runs the one-file program against the compiled client.
        smoke: async () => ({ file: java, args: ['-cp', await compile(), join(smokeDir('java'), 'Smoke.java')] }),
      };
    }
    case 'openapi-generator-kotlin': {
      // Maven compiles the generated sources with the smoke program (its pom.xml), into the client's directory; again
      // only when the generation, the pom, the program or the JDK changed (the Kotlin compiler takes minutes of CPU).
      const project = smokeDir('kotlin');
      const buildDir = () => join(outputDir(), 'target');
      const classpathFile = () => join(buildDir(), 'classpath.txt');
      const mavenCompile = async () => {
        const hash = kotlinBuildHash(outputDir(), jdkVersion);
        if (isUpToDate(buildDir(), hash)) return;
        await run(
          maven,
          [
            ...mavenOptions,
            `-Dclient.dir=${outputDir()}`,
            'compile',
            'dependency:build-classpath',
            '-Dmdep.includeScope=compile',
            `-Dmdep.outputFile=${classpathFile()}`,
          ],
          { cwd: project, timeoutMs: 1_800_000 },
        );
        markUpToDate(buildDir(), hash);
      };
      let classpath: Promise<string> | undefined;
      const compile = () =>
        (classpath ??= mavenCompile().then(() => [join(buildDir(), 'classes'), readFileSync(classpathFile(), 'utf8').trim()].join(delimiter)));
      return {
        generate: openapiGenerator,
        compile,
        smoke: async () => ({ file: java, args: ['-cp', await compile(), 'SmokeKt'] }),
      };
    }
    case 'openapi-generator-go':
      return {
        generate: openapiGenerator,
        compile: () => buildGoSmoke(go, target.name, smokeDir('go')),
        smoke: async () => ({ file: bin(target.name), args: [] }),
      };
    case 'oapi-codegen':
      return {
        generate: () => generateGoClient(go),
        compile: () => buildGoSmoke(go, target.name, join(packageDir, 'smoke', 'go')),
        smoke: async () => ({ file: bin(target.name), args: [] }),
      };
    case 'ogen': {
      const output = join(clientsDir, 'ogen');
      return {
        generate: () =>
          stamped(output, [join(repoRoot, target.document), join(packageDir, 'tools', 'go.sum')], async () => {
            await commandOf(target, { go: [go] });
            // A module the smoke program replaces, as for oapi-codegen's client.
            writeFileSync(join(output, 'go.mod'), 'module aggregation.example/ogen\n\ngo 1.25\n');
          }),
        compile: () => buildGoSmoke(go, target.name, matrixSmokeDir('ogen')),
        smoke: async () => ({ file: bin(target.name), args: [] }),
      };
    }
    case 'openapi-generator-rust': {
      // One target directory for every build, kept between runs: the dependencies compile once.
      const targetDir = join(cacheDir, 'cargo-target');
      const program = join(targetDir, 'debug', 'aggregation-smoke');
      return {
        generate: openapiGenerator,
        compile: () =>
          run(cargo, ['build', '--locked', '--quiet'], {
            cwd: smokeDir('rust'),
            env: { ...process.env, CARGO_TARGET_DIR: targetDir },
            timeoutMs: 1_800_000,
          }),
        smoke: async () => ({ file: program, args: [] }),
      };
    }
    case 'openapi-generator-ruby': {
      const lib = () => join(outputDir(), 'lib');
      return {
        generate: openapiGenerator,
        // Loading the gem loads every model and API (Ruby's syntax check at once).
        compile: () => run(ruby, ['-I', lib(), '-e', 'require "aggregation_openapi_client"; puts AggregationOpenapiClient::VERSION']),
        smoke: async () => ({ file: ruby, args: ['-I', lib(), join(smokeDir('ruby'), 'smoke.rb')] }),
      };
    }
    case 'openapi-generator-php': {
      const smoke = smokeDir('php');
      return {
        generate: openapiGenerator,
        // Every file linted, then every class loaded through the autoloader the smoke program uses.
        compile: async () => {
          for (const file of phpFiles(join(outputDir(), 'lib'))) await run(php, ['-l', file]);
          await run(php, [join(smoke, 'load-all.php'), outputDir()]);
        },
        smoke: async () => ({ file: php, args: [join(smoke, 'smoke.php')], env: { CLIENT_DIR: outputDir() } }),
      };
    }
    default:
      throw new Error(`${target.name}: no build in src/matrix.ts`);
  }
}
