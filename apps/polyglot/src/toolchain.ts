// Finding the other languages' toolchains. A missing one skips its part (see @aggregation/test-support).
import { execFileSync } from 'node:child_process';
import { readFileSync, realpathSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { which } from '@aggregation/test-support';
import { parse } from 'yaml';
import { packageDir } from './paths.ts';

export type Toolchain = {
  python: string | undefined;
  go: string | undefined;
  curl: string | undefined;
  /** The JDK's `java`, `javac` beside it (openapi-generator, the generated Java client, the source launcher). */
  java: string | undefined;
  /** What its `javac -version` prints (`javac 21.0.5`): compiled classes are kept for the JDK that compiled them. */
  jdkVersion: string | undefined;
  maven: string | undefined;
  /** For the generator matrix's Rust, Ruby and PHP clients (src/matrix.ts). */
  cargo: string | undefined;
  ruby: string | undefined;
  php: string | undefined;
  problems: Partial<Record<'python' | 'go' | 'java', string>>;
};

/**
 * JVM options for short runs (a generator, a Maven build, small programs): the JIT's optimising tier (C2) costs more
 * CPU than it saves before the JVM exits, and one garbage-collecting thread is enough. The output is the same.
 */
export const shortRunJvmOptions = ['-XX:TieredStopAtLevel=1', '-XX:+UseSerialGC', '-Xshare:auto'];

/** Maven's environment for a short build: the options above before the user's own MAVEN_OPTS. */
export function shortRunMavenEnv(env: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  return { ...env, MAVEN_OPTS: [...shortRunJvmOptions, env.MAVEN_OPTS ?? ''].join(' ').trim() };
}

export const minimumVersions = { python: [3, 11], go: [1, 25], java: [11, 0] } as const;

/** What a command prints, trimmed, or undefined when it cannot run. */
function outputOf(file: string, args: string[]): string | undefined {
  try {
    return execFileSync(file, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    return undefined;
  }
}

/** `[major, minor]` in what a command printed. */
function versionIn(output: string | undefined, pattern: RegExp): [number, number] | undefined {
  const match = output === undefined ? null : pattern.exec(output);
  return match ? [Number(match[1]), Number(match[2])] : undefined;
}

function tooOld(found: [number, number] | undefined, minimum: readonly [number, number]): string | undefined {
  if (!found) return 'its version could not be read';
  const [major, minor] = found;
  if (major > minimum[0] || (major === minimum[0] && minor >= minimum[1])) return undefined;
  return `version ${major}.${minor} found, ${minimum.join('.')} or newer needed`;
}

/** PYTHON, GO, JAVA and MVN override the names looked up on PATH. A toolchain older than the generators need counts as missing. */
export function findToolchain(): Toolchain {
  const toolchain: Toolchain = {
    python: which(process.env.PYTHON ?? 'python3'),
    go: which(process.env.GO ?? 'go'),
    curl: which('curl'),
    java: which(process.env.JAVA ?? 'java'),
    jdkVersion: undefined,
    maven: which(process.env.MVN ?? 'mvn'),
    cargo: which('cargo'),
    ruby: which('ruby'),
    php: which('php'),
    problems: {},
  };
  if (toolchain.python) {
    const problem = tooOld(versionIn(outputOf(toolchain.python, ['--version']), /Python (\d+)\.(\d+)/), minimumVersions.python);
    if (problem) [toolchain.python, toolchain.problems.python] = [undefined, `${toolchain.python}: ${problem}`];
  }
  if (toolchain.go) {
    const problem = tooOld(versionIn(outputOf(toolchain.go, ['env', 'GOVERSION']), /go(\d+)\.(\d+)/), minimumVersions.go);
    if (problem) [toolchain.go, toolchain.problems.go] = [undefined, `${toolchain.go}: ${problem}`];
  }
  if (toolchain.java) {
    // A JDK, not a runtime alone: javac (beside java) compiles the smoke program, and prints its version on stdout.
    const javac = join(dirname(realpathSync(toolchain.java)), 'javac');
    toolchain.jdkVersion = outputOf(javac, ['-version']);
    const problem = tooOld(versionIn(toolchain.jdkVersion, /javac (\d+)\.?(\d*)/), minimumVersions.java);
    if (problem) [toolchain.java, toolchain.jdkVersion, toolchain.problems.java] = [undefined, undefined, `${javac}: ${problem}`];
  }
  return toolchain;
}

export const tools = ['python', 'go', 'curl', 'java', 'maven', 'cargo', 'ruby', 'php'] as const;
export type Tool = (typeof tools)[number];

/** What to install for each tool: `tools` of matrix.yaml, which the docs' guide "Generate a client" shows too. */
export const installHints: Record<Tool, string> = (() => {
  const hints = (parse(readFileSync(join(packageDir, 'matrix.yaml'), 'utf8')) as { tools: Record<string, string> }).tools;
  const missing = tools.filter((tool) => typeof hints[tool] !== 'string');
  if (missing.length > 0) throw new Error(`matrix.yaml: no install hint for ${missing.join(', ')}`);
  return hints as Record<Tool, string>;
})();

/** Why a part cannot run; undefined when it can. */
export function missingTool(tool: Tool, toolchain: Toolchain = findToolchain()): string | undefined {
  if (toolchain[tool]) return undefined;
  const problem = tool === 'python' || tool === 'go' || tool === 'java' ? toolchain.problems[tool] : undefined;
  return `${tool} ${problem ? `unusable (${problem})` : 'not found'}: ${installHints[tool]}`;
}
