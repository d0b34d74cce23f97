// versions: a resource read under each Service-Version matches that version's schema (status, headers, content type
// and body, through the shared contract validator), and the answer names the version in its Service-Version header.
import type { Version } from '@aggregation/openapi/versions';
import { validatorOf } from '../coverage.ts';
import type { Collector } from '../report/collect.ts';
import { at } from './checks.ts';
import type { Http } from './http.ts';
import { rule } from './rules.ts';

export async function checkVersion(http: Http, collector: Collector, version: Version, accountId: string): Promise<void> {
  const validator = validatorOf(version);
  const names = rule(
    version,
    '#/components/headers/ServiceVersion/description',
    'The API version (a date) that served the request: the `Service-Version` request header when given',
  );
  const paths = [
    '/',
    '/institutions',
    '/accounts',
    `/accounts/${accountId}`,
    `/accounts/${accountId}/balances`,
    `/accounts/${accountId}/details`,
    `/accounts/${accountId}/transactions?count=5`,
    `/accounts/${accountId}/payments`,
  ];
  for (const path of paths) {
    const answer = await http.get(path, version);
    const bare = path.split('?')[0]!;
    const operation = `GET ${validator.match('GET', bare)?.path ?? bare}`;
    const problems = validator.validateResponse({
      method: 'GET',
      path: bare,
      status: answer.status,
      headers: answer.headers,
      body: answer.json ?? answer.text,
    });
    collector.record(
      at(version, operation, "versions: matches the version's schema"),
      answer.status === 200 && problems.length === 0
        ? undefined
        : http.failure(answer, answer.status !== 200 ? `answered ${answer.status}` : problems.map((p) => `${p.where}: ${p.message}`).join('\n')),
    );
    const named = answer.headers.get('service-version');
    collector.record(
      at(version, operation, 'versions: the answer names the version'),
      named === version
        ? undefined
        : http.failure(answer, `Service-Version ${version} was asked for; the answer's Service-Version header is ${named ?? 'missing'}`, names),
    );
  }
}
