// The runners that run many programs of a language in one process (support/in-one-process.ts, support/runners/):
// each program sees its own environment only, prints its own output, and fails on its own when it throws, panics or
// ends the process; the programs after it still run. This is what lets the samples' and guides' tests fail a sample
// that fails, as when each ran in a process of its own.
import assert from 'node:assert/strict';
import { skipWhenMissing } from '@aggregation/test-support';
import { describe, it } from 'vitest';
import { compileJavaClient } from '../src/openapi-generator-builds.ts';
import { venvEnv, venvPython } from '../src/python.ts';
import { findToolchain, missingTool } from '../src/toolchain.ts';
import type { Outcome } from './support/in-one-process.ts';
import { asGoPackage, runGoPrograms, runJavaPrograms, runPythonPrograms, runTypescriptPrograms, type Source } from './support/programs.ts';

const toolchain = findToolchain();
const noPython = skipWhenMissing('the Python runner', missingTool('python', toolchain));
const noGo = skipWhenMissing('the Go runner', missingTool('go', toolchain));
const noJava = skipWhenMissing('the Java runner', missingTool('java', toolchain) ?? missingTool('maven', toolchain));

/** Programs that print their variables (three of them), throw, and end the process, in this order. */
type Kinds = { prints: string; throws: string; exits: string };
function programs(kinds: Kinds): Source[] {
  return [
    { name: 'first', source: kinds.prints, env: { SAMPLE_VALUE: 'one', ONLY_FIRST: 'set' } },
    { name: 'second', source: kinds.prints, env: { SAMPLE_VALUE: 'two' } },
    { name: 'throws', source: kinds.throws, env: { SAMPLE_VALUE: 'three' } },
    { name: 'exits', source: kinds.exits, env: { SAMPLE_VALUE: 'four' } },
    { name: 'last', source: kinds.prints, env: { SAMPLE_VALUE: 'five' } },
  ];
}

function check(outcomes: Map<string, Outcome>): void {
  const first = outcomes.get('first');
  assert.deepEqual([first?.ok, first?.output.trim()], [true, 'one set'], JSON.stringify(first));
  // In the same process, without the first program's variable.
  const second = outcomes.get('second');
  assert.deepEqual([second?.ok, second?.output.trim()], [true, 'two unset'], JSON.stringify(second));
  const thrown = outcomes.get('throws');
  assert.equal(thrown?.ok, false);
  assert.match(thrown.error, /wrong answer/);
  const exited = outcomes.get('exits');
  assert.equal(exited?.ok, false);
  assert.match(exited.error, /ended the process/);
  assert.match(exited.output, /before the end/);
  // Run by a new process after the one that ended, with its own environment and nothing of the first program's.
  const last = outcomes.get('last');
  assert.deepEqual([last?.ok, last?.output.trim()], [true, 'five unset'], JSON.stringify(last));
}

const env = venvEnv();

describe('programs of a language run in one process', { concurrent: true }, () => {
  it('TypeScript: imported one after another by one Node process', async () => {
    const outcomes = await runTypescriptPrograms(
      'in-one-process-typescript',
      programs({
        prints: "console.log(process.env.SAMPLE_VALUE, process.env.ONLY_FIRST ?? 'unset');",
        throws: "throw new Error('wrong answer');",
        exits: "console.log('before the end');\nprocess.exit(3);",
      }),
      { env },
    );
    check(outcomes);
  });

  it.skipIf(noPython)('Python: run as __main__ one after another by one interpreter', async () => {
    const outcomes = await runPythonPrograms(
      venvPython,
      'in-one-process-python',
      programs({
        prints: "import os\nprint(os.environ['SAMPLE_VALUE'], os.environ.get('ONLY_FIRST', 'unset'))",
        throws: "raise RuntimeError('wrong answer')",
        exits: "import os\nprint('before the end', flush=True)\nos._exit(3)",
      }),
      { env },
    );
    check(outcomes);
  });

  it.skipIf(noGo)('Go: each main a function of one program', async () => {
    const main = (body: string) =>
      `package main\n\nimport (\n\t"fmt"\n\t"log"\n\t"os"\n)\n\nfunc main() {\n${body}\n}\n\nvar _, _, _ = fmt.Println, log.Fatal, os.Getenv\n`;
    const outcomes = await runGoPrograms(
      toolchain.go!,
      'in-one-process-go',
      programs({
        prints: main(
          '\tonly, found := os.LookupEnv("ONLY_FIRST")\n\tif !found {\n\t\tonly = "unset"\n\t}\n\tfmt.Println(os.Getenv("SAMPLE_VALUE"), only)',
        ),
        throws: main('\tpanic("wrong answer")'),
        exits: main('\tfmt.Println("before the end")\n\tlog.Fatal("the end")'),
      }),
      { env },
    );
    check(outcomes);
  });

  it.skipIf(noJava)("Java: each class's main called in one JVM", async () => {
    const classpath = await compileJavaClient(toolchain.maven!, toolchain.jdkVersion!);
    const main = (name: string, body: string) =>
      `public class ${name} {\n  public static void main(String[] args) throws Exception {\n    ${body}\n  }\n}\n`;
    const prints = 'System.out.println(System.getenv("SAMPLE_VALUE") + " " + System.getenv().getOrDefault("ONLY_FIRST", "unset"));';
    const [first, second, throws, exits, last] = programs({
      prints: main('Prints', prints),
      throws: main('Throws', 'throw new IllegalStateException("wrong answer");'),
      exits: main('Exits', 'System.out.println("before the end");\n    System.exit(3);'),
    });
    // The last one in a second group, where it may declare the same class as the first.
    const outcomes = await runJavaPrograms(
      toolchain.java!,
      classpath,
      'in-one-process-java',
      { one: [first!, second!, throws!, exits!], two: [last!] },
      { env },
    );
    check(outcomes);
  });

  it('a program that does not finish fails, and stops the run', async () => {
    const outcomes = await runTypescriptPrograms(
      'in-one-process-hangs',
      [{ name: 'hangs', source: 'await new Promise(() => setInterval(() => {}, 1000));', env: {} }],
      {
        env,
        programTimeoutMs: 1_000,
      },
    );
    assert.equal(outcomes.get('hangs')?.ok, false);
    assert.match(outcomes.get('hangs')!.error, /no answer within 1 s/);
  });

  it('a Go program is its source with only `package main` and `func main()` renamed', () => {
    const source = 'package main\n\nimport "fmt"\n\nfunc main() {\n\tfmt.Println("package main")\n}\n';
    assert.equal(asGoPackage(source), source.replace('package main\n', 'package program\n').replace('func main() {', 'func Main() {'));
    assert.throws(() => asGoPackage('package other\n'), /not a Go program/);
  });
});
