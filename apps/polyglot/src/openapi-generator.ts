// openapi-generator (https://openapi-generator.tech), the generator most users of the description already have:
// its CLI jar, pinned, fetched from Maven Central by Maven into Maven's own local repository, generates the typescript-fetch,
// python and java clients into clients/openapi-generator/<generator>, one JVM per generator (`generate -c` with the
// generator's configuration file in openapi-generator/, which names its input, the generators' variant of the current
// bundle, its output and its options). Not `batch`, which runs them in one JVM but prints no warnings.
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { basename, join, relative } from 'node:path';
import { parse } from 'yaml';
import { clientsDir, packageDir, repoRoot } from './paths.ts';
import { RunError, run } from './run.ts';
import { hashFiles, isUpToDate, isUpToDateOrKept, markUpToDate, markUpToDateAndKeep, stampFile } from './stamp.ts';
import { shortRunJvmOptions } from './toolchain.ts';

export const openapiGeneratorVersion = '7.25.0';
/** The Maven plugin that copies the jar out of Maven Central, pinned too. */
const dependencyPlugin = 'org.apache.maven.plugins:maven-dependency-plugin:3.8.1';

/** Kept between runs under the ignored clients/: the Rust build of the matrix. */
export const cacheDir = join(clientsDir, '.cache');
/**
 * Maven's default local repository (`~/.m2/repository`), where Maven keeps what it downloads for every project of the
 * user: a clean checkout does not download the jar and the Java clients' dependencies again. Named explicitly so that
 * the jar's place in it is known without starting Maven.
 */
export const mavenRepository = join(homedir(), '.m2', 'repository');
export const generatorJar = join(
  mavenRepository,
  'org/openapitools/openapi-generator-cli',
  openapiGeneratorVersion,
  `openapi-generator-cli-${openapiGeneratorVersion}.jar`,
);
export const configDir = join(packageDir, 'openapi-generator');
export const outputRoot = join(clientsDir, 'openapi-generator');
/** The generator's own output of the last generation, kept for the tests (`generation.log`). */
export const generationLog = join(outputRoot, 'generation.log');

export const generators = ['typescript-fetch', 'python', 'java'] as const;
export type GeneratorName = (typeof generators)[number];
export const smokeDir = (generator: string) => join(packageDir, 'smoke', 'openapi-generator', generator);

/** Maven's options for every run: batch mode, and the local repository named. */
export const mavenOptions = ['-B', '-q', `-Dmaven.repo.local=${mavenRepository}`];

/** One generator's configuration file; its paths are relative to the repository's root. */
export type GeneratorConfig = {
  file: string;
  generatorName: GeneratorName;
  inputSpec: string;
  outputDir: string;
  additionalProperties?: Record<string, string | number | boolean>;
};

/** A configuration file, its paths made absolute. */
export function readConfig(file: string): GeneratorConfig {
  const config = parse(readFileSync(file, 'utf8')) as Omit<GeneratorConfig, 'file'>;
  return { ...config, file, inputSpec: join(repoRoot, config.inputSpec), outputDir: join(repoRoot, config.outputDir) };
}

/** The three clients the workspace's tests build (the generator matrix's others are in openapi-generator/matrix/). */
export function readConfigs(): GeneratorConfig[] {
  return readdirSync(configDir)
    .filter((file) => file.endsWith('.yaml'))
    .sort()
    .map((name) => readConfig(join(configDir, name)));
}

/** Where a generator's client is written, as its configuration says. */
export function outputDir(generator: GeneratorName): string {
  const config = readConfigs().find((candidate) => candidate.generatorName === generator);
  if (!config) throw new Error(`no configuration for ${generator} in ${configDir}`);
  return config.outputDir;
}

/** The pinned CLI jar, downloaded from Maven Central into the local repository on the first run (Maven checks its checksum). */
export async function ensureGeneratorJar(mvn: string): Promise<string> {
  // Maven writes a download under another name and renames it when complete: a jar there is whole.
  if (existsSync(generatorJar)) return generatorJar;
  mkdirSync(cacheDir, { recursive: true });
  await run(
    mvn,
    [
      ...mavenOptions,
      `${dependencyPlugin}:get`,
      `-Dartifact=org.openapitools:openapi-generator-cli:${openapiGeneratorVersion}:jar`,
      '-Dtransitive=false',
    ],
    {
      cwd: cacheDir,
    },
  );
  return generatorJar;
}

/** Runs one generator; resolves to what it printed, headed by its name, whether it succeeded or not. */
async function generateOne(java: string, jar: string, config: GeneratorConfig): Promise<{ output: string; error?: unknown }> {
  const header = `== ${config.generatorName} (${config.file})\n`;
  try {
    // The configuration names its input and output relative to the repository's root.
    const { stdout, stderr } = await run(java, [...shortRunJvmOptions, '-jar', jar, 'generate', '-c', config.file], { cwd: repoRoot });
    return { output: `${header}${stdout}${stderr}` };
  } catch (error) {
    return { output: `${header}${error instanceof RunError ? `${error.stdout}${error.stderr}` : String(error)}`, error };
  }
}

/**
 * Generates the three clients side by side, unless nothing they come from changed. What the generators printed
 * goes to `generation.log` either way it ends; a failed generation throws.
 */
export async function generateWithOpenapiGenerator(java: string, mvn: string): Promise<'generated' | 'up to date'> {
  const jar = await ensureGeneratorJar(mvn);
  const configs = readConfigs();
  // This module is an input too: how the generators are run decides what the log holds.
  const inputs = [...new Set(configs.map((config) => config.inputSpec)), ...configs.map((config) => config.file), jar, import.meta.filename];
  const hash = hashFiles(inputs);
  if (isUpToDateOrKept(outputRoot, hash)) return 'up to date';
  mkdirSync(outputRoot, { recursive: true });
  rmSync(stampFile(outputRoot), { force: true });
  // Whole directories: what an earlier generation or build wrote there (sources of other options, pip's build/ with
  // modules the description no longer has) must not outlive it.
  for (const config of configs) rmSync(config.outputDir, { recursive: true, force: true });
  const outcomes = await Promise.all(configs.map((config) => generateOne(java, jar, config)));
  writeFileSync(generationLog, outcomes.map((outcome) => outcome.output).join('\n'));
  const failed = outcomes.find((outcome) => outcome.error);
  if (failed) throw failed.error;
  // The generator matrix writes its own clients beside these three: only these are kept.
  markUpToDateAndKeep(outputRoot, hash, [...configs.map((config) => relative(outputRoot, config.outputDir)), basename(generationLog)]);
  return 'generated';
}

/**
 * One generator of the matrix from its configuration file, unless nothing it comes from changed; what it printed goes
 * to `generation.log` in its output directory.
 */
export async function generateFromConfig(java: string, mvn: string, file: string): Promise<'generated' | 'up to date'> {
  const jar = await ensureGeneratorJar(mvn);
  const config = readConfig(file);
  const hash = hashFiles([config.inputSpec, file, jar]);
  if (isUpToDate(config.outputDir, hash)) return 'up to date';
  rmSync(config.outputDir, { recursive: true, force: true });
  const outcome = await generateOne(java, jar, config);
  mkdirSync(config.outputDir, { recursive: true });
  writeFileSync(join(config.outputDir, 'generation.log'), outcome.output);
  if (outcome.error) throw outcome.error;
  markUpToDate(config.outputDir, hash);
  return 'generated';
}

/**
 * Errors and warnings openapi-generator prints about descriptions it does not fully support, not about mistakes in
 * ours; any other error or warning in its output is treated as the description's.
 */
export const generatorLimitations: { message: RegExp; reason: string }[] = [
  {
    message: /OpenAPI 3\.1 support is still in beta/,
    reason: 'The generator says so of every OpenAPI 3.1 document.',
  },
  {
    message: /Failed to get the schema name: null/,
    reason:
      'Printed for `additionalProperties: false` (valid JSON Schema, on every closed object of the description), which ' +
      'its 3.1 parser reads as a schema without a name; the models are generated all the same.',
  },
  {
    message: /Error \(model name matches existing language type\) cannot be used as a model name\. Renamed to ModelError/,
    reason: "The contract's error body is the schema `Error`, which TypeScript's built-in `Error` shadows: the model is `ModelError`.",
  },
  {
    message: /Ignoring complex example on request body/,
    reason: "The java generator writes no object example of a request body into its docs; the description's examples are valid.",
  },
];

/** The lines of a generation's output that report an error or a warning the generator's limitations do not explain. */
export function unexplainedProblems(log: string): string[] {
  return (
    log
      .split('\n')
      // A log line at level ERROR or WARN, or a stack trace's head (`writing file .../ApiException.java` is neither).
      .filter((line) => /\]\s+(ERROR|WARN)\b|^(Exception|Caused by)\b|\bSEVERE\b/.test(line))
      .filter((line) => !generatorLimitations.some(({ message }) => message.test(line)))
  );
}

/** What the last generation printed. */
export function readGenerationLog(): string {
  return readFileSync(generationLog, 'utf8');
}
