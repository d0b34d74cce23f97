// The testcases of a junit.xml as the mutation self-tests match them, `<testsuite>: <testcase>`: the failed ones,
// followed by ` [<failure type>]` once per failure type when `withKinds` is set, or every one with its outcome.
import { readFile } from 'node:fs/promises';
import { XMLParser } from 'fast-xml-parser';

type Failure = { type?: string };
type JunitTestcase = { name: string; failure?: Failure[]; skipped?: unknown };

export async function failedTestcases(file: string, withKinds = false): Promise<string[]> {
  const parser = new XMLParser({
    ignoreAttributes: false,
    attributeNamePrefix: '',
    isArray: (name) => name === 'testsuite' || name === 'testcase' || name === 'failure',
  });
  const xml = parser.parse(await readFile(file, 'utf8')) as { testsuites: { testsuite?: { name: string; testcase?: JunitTestcase[] }[] } };
  return (xml.testsuites.testsuite ?? []).flatMap((suite) =>
    (suite.testcase ?? [])
      .filter((t) => t.failure !== undefined)
      .flatMap((t) => {
        const name = `${suite.name}: ${t.name}`;
        if (!withKinds) return [name];
        return [...new Set((t.failure ?? []).map((f) => f.type ?? ''))].map((kind) => `${name} [${kind}]`);
      }),
  );
}

/** A testcase of a junit.xml, as `<testsuite>: <testcase>`, and whether it failed or was skipped. */
export type Testcase = { name: string; failed: boolean; skipped: boolean };

/** Every testcase of a junit.xml. */
export async function testcasesOf(file: string): Promise<Testcase[]> {
  const parser = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '', isArray: (name) => name === 'testsuite' || name === 'testcase' });
  const xml = parser.parse(await readFile(file, 'utf8')) as { testsuites: { testsuite?: { name: string; testcase?: JunitTestcase[] }[] } };
  return (xml.testsuites.testsuite ?? []).flatMap((suite) =>
    (suite.testcase ?? []).map((t) => ({ name: `${suite.name}: ${t.name}`, failed: t.failure !== undefined, skipped: t.skipped !== undefined })),
  );
}
