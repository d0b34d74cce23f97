// openapi-generator (https://openapi-generator.tech), the generator most users of the description already have:
// its CLI jar, pinned, fetched from Maven Central by Maven into clients/.cache, generates the typescript-fetch,
// python and java clients into clients/openapi-generator/<generator> in one JVM (`batch`, one configuration file
// per generator in openapi-generator/, which names its input, the generators' variant of the current bundle, and its
// output), from the generators' variant of the current bundle.
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { clientsDir, packageDir, repoRoot } from './paths.ts';
import { run, RunError } from './run.ts';
import { hashFiles, isUpToDate, markUpToDate, stampFile } from './stamp.ts';

export const openapiGeneratorVersion = '7.25.0';
/** The Maven plugin that copies the jar out of Maven Central, pinned too. */
const dependencyPlugin = 'org.apache.maven.plugins:maven-dependency-plugin:3.8.1';

/** Caches kept between runs (gitignored with clients/): the jar and Maven's local repository. */
export const cacheDir = join(clientsDir, '.cache');
export const mavenRepository = join(cacheDir, 'maven');
export const generatorJar = join(cacheDir, `openapi-generator-cli-${openapiGeneratorVersion}.jar`);

export const configDir = join(packageDir, 'openapi-generator');
export const outputRoot = join(clientsDir, 'openapi-generator');
/** The generator's own output of the last generation, kept for the tests (`generation.log`). */
export const generationLog = join(outputRoot, 'generation.log');

export const generators = ['typescript-fetch', 'python', 'java'] as const;
export type GeneratorName = (typeof generators)[number];
export const smokeDir = (generator: GeneratorName) => join(packageDir, 'smoke', 'openapi-generator', generator);

/** Maven's options for every run: batch mode, and the project's own repository cache. */
export const mavenOptions = ['-B', '-q', `-Dmaven.repo.local=${mavenRepository}`];

/** One configuration file of `batch`; its paths are relative to the repository's root. */
export type GeneratorConfig = {
  file: string;
  generatorName: GeneratorName;
  inputSpec: string;
  outputDir: string;
  additionalProperties?: Record<string, string | number | boolean>;
};

export function readConfigs(): GeneratorConfig[] {
  return readdirSync(configDir)
    .filter((file) => file.endsWith('.yaml'))
    .sort()
    .map((name) => {
      const file = join(configDir, name);
      const config = parse(readFileSync(file, 'utf8')) as Omit<GeneratorConfig, 'file'>;
      return { ...config, file, inputSpec: join(repoRoot, config.inputSpec), outputDir: join(repoRoot, config.outputDir) };
    });
}

/** Where a generator's client is written, as its configuration says. */
export function outputDir(generator: GeneratorName): string {
  const config = readConfigs().find((candidate) => candidate.generatorName === generator);
  if (!config) throw new Error(`no configuration for ${generator} in ${configDir}`);
  return config.outputDir;
}

/** The pinned CLI jar, copied from Maven Central on the first run. */
export async function ensureGeneratorJar(mvn: string): Promise<string> {
  if (existsSync(generatorJar)) return generatorJar;
  mkdirSync(cacheDir, { recursive: true });
  await run(
    mvn,
    [
      ...mavenOptions,
      `${dependencyPlugin}:copy`,
      `-Dartifact=org.openapitools:openapi-generator-cli:${openapiGeneratorVersion}:jar`,
      `-DoutputDirectory=${cacheDir}`,
    ],
    { cwd: cacheDir },
  );
  return generatorJar;
}

/**
 * Generates the three clients in one JVM, unless nothing they come from changed. The generator's output goes to
 * `generation.log` either way it ends; a failed generation throws with it.
 */
export async function generateWithOpenapiGenerator(java: string, mvn: string): Promise<'generated' | 'up to date'> {
  const jar = await ensureGeneratorJar(mvn);
  const configs = readConfigs();
  const hash = hashFiles([...new Set(configs.map((config) => config.inputSpec)), ...configs.map((config) => config.file), jar]);
  if (isUpToDate(outputRoot, hash)) return 'up to date';
  mkdirSync(outputRoot, { recursive: true });
  rmSync(stampFile(outputRoot), { force: true });
  // Whole directories, not the generator's `--clean`, which leaves what an earlier generation or build wrote
  // (loose sources of other options, pip's build/ with modules the description no longer has).
  for (const config of configs) rmSync(config.outputDir, { recursive: true, force: true });
  // The configurations name their input and output relative to the repository's root.
  const args = ['-jar', jar, 'batch', '--fail-fast', ...configs.map((config) => config.file)];
  try {
    const { stdout, stderr } = await run(java, args, { cwd: repoRoot });
    writeFileSync(generationLog, `${stdout}${stderr}`);
  } catch (error) {
    if (error instanceof RunError) writeFileSync(generationLog, `${error.stdout}${error.stderr}`);
    throw error;
  }
  markUpToDate(outputRoot, hash);
  return 'generated';
}

/**
 * Errors and warnings openapi-generator prints about descriptions it does not fully support, not about mistakes in
 * ours; any other error or warning in its output is treated as the description's.
 */
export const generatorLimitations: { message: RegExp; reason: string }[] = [
  {
    message: /Unknown type `mutualTLS` found in the security definition/,
    reason:
      "OpenAPI 3.1's `mutualTLS` security scheme (live tokens need a client certificate) is unknown to the generator, " +
      'which leaves it out; the certificate belongs to the HTTP client\'s TLS settings, not to a request.',
  },
];

/** The lines of a generation's output that report an error or a warning the generator's limitations do not explain. */
export function unexplainedProblems(log: string): string[] {
  return log
    .split('\n')
    .filter((line) => /\b(ERROR|WARN(ING)?|SEVERE)\b|Exception\b/.test(line))
    .filter((line) => !generatorLimitations.some(({ message }) => message.test(line)));
}

/** What the last generation printed. */
export function readGenerationLog(): string {
  return readFileSync(generationLog, 'utf8');
}
