// junit.xml: one testsuite per suite and document, one testcase per operation and check; a failure carries the
// request, an excerpt of the answer, a curl line and the seed. Written with fast-xml-parser's builder.
import { XMLBuilder } from 'fast-xml-parser';
import { failureText, xmlSafe } from './text.ts';
import type { ReportCore, Testcase, Testsuite } from './types.ts';

type Node = Record<string, unknown>;

const builder = new XMLBuilder({ ignoreAttributes: false, attributeNamePrefix: '@_', format: true, suppressEmptyNode: true });

function testcaseNode(testsuite: Testsuite, testcase: Testcase): Node {
  const node: Node = { '@_name': xmlSafe(testcase.name), '@_classname': `${testsuite.suite}.${testsuite.document}` };
  if (testcase.status === 'failed') {
    node.failure = testcase.failures.map((failure) => ({
      '@_message': xmlSafe(failure.message.split('\n')[0]!.slice(0, 300)),
      '@_type': failure.kind ?? testcase.check,
      '#text': xmlSafe(failureText(failure)),
    }));
  } else if (testcase.status === 'skipped') {
    node.skipped = { '@_message': xmlSafe(testcase.reason ?? 'not run') };
  }
  return node;
}

const count = (testcases: Testcase[], status: Testcase['status']) => testcases.filter((t) => t.status === status).length;

function testsuiteNode(testsuite: Testsuite, extra: Node = {}): Node {
  return {
    '@_name': testsuite.name,
    '@_tests': testsuite.testcases.length,
    '@_failures': count(testsuite.testcases, 'failed'),
    '@_errors': 0,
    '@_skipped': count(testsuite.testcases, 'skipped'),
    ...extra,
    testcase: testsuite.testcases.map((testcase) => testcaseNode(testsuite, testcase)),
    ...(testsuite.notes.length ? { 'system-out': xmlSafe(testsuite.notes.join('\n')) } : {}),
  };
}

/** The report as JUnit XML; a tool that could not run is an `<error>` testcase of its suite. */
export function junitXml(report: ReportCore): string {
  const suites = report.testsuites.map((testsuite) =>
    testsuiteNode(testsuite, { properties: { property: [{ '@_name': 'document', '@_value': testsuite.document }] } }),
  );
  for (const error of report.errors) {
    suites.push({
      '@_name': `${error.suite} setup`,
      '@_tests': 1,
      '@_failures': 0,
      '@_errors': 1,
      '@_skipped': 0,
      testcase: [
        {
          '@_name': `${error.suite} ran`,
          '@_classname': `${error.suite}.setup`,
          error: { '@_message': xmlSafe(error.message.split('\n')[0]!), '#text': xmlSafe(error.message) },
        },
      ],
    });
  }
  const document = {
    '?xml': { '@_version': '1.0', '@_encoding': 'UTF-8' },
    testsuites: {
      '@_name': report.tool.name,
      '@_tests': report.totals.testcases + report.errors.length,
      '@_failures': report.totals.failed,
      '@_errors': report.errors.length,
      '@_skipped': report.totals.skipped,
      '@_time': report.durationSeconds.toFixed(1),
      testsuite: suites,
    },
  };
  return builder.build(document) as string;
}
