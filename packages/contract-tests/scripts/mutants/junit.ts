// The failed testcases of a junit.xml as the mutation self-tests match them: `<testsuite>: <testcase>`, followed by
// ` [<failure type>]` once per failure type when `withKinds` is set.
import { readFile } from 'node:fs/promises';
import { XMLParser } from 'fast-xml-parser';

type Failure = { type?: string };
type Testcase = { name: string; failure?: Failure[] };

export async function failedTestcases(file: string, withKinds = false): Promise<string[]> {
  const parser = new XMLParser({
    ignoreAttributes: false,
    attributeNamePrefix: '',
    isArray: (name) => name === 'testsuite' || name === 'testcase' || name === 'failure',
  });
  const xml = parser.parse(await readFile(file, 'utf8')) as { testsuites: { testsuite?: { name: string; testcase?: Testcase[] }[] } };
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
