// links: from the entrypoint, every `links.self` fetched returns the resource that carried it (the same object, or an
// array holding it, as for the older version's balances), and every other link answers 200. Lists are followed through
// their first few items, so that a long transaction history costs a few requests.
import { isDeepStrictEqual } from 'node:util';
import type { Version } from '@aggregation/openapi/versions';
import { validatorOf } from '../coverage.ts';
import type { Collector } from '../report/collect.ts';
import type { Answer, Http } from './http.ts';

type Carrier = { links: Record<string, unknown> } & Record<string, unknown>;

/** Items of a list followed, and links fetched, per version. */
const ITEMS_PER_LIST = 3;
const MAX_FETCHES = 80;

const isCarrier = (value: unknown): value is Carrier =>
  typeof value === 'object' && value !== null && typeof (value as Carrier).links === 'object' && (value as Carrier).links !== null;

function carriersOf(body: unknown): Carrier[] {
  if (Array.isArray(body)) return body.slice(0, ITEMS_PER_LIST).filter(isCarrier);
  return isCarrier(body) ? [body] : [];
}

export async function checkLinks(http: Http, collector: Collector, version: Version): Promise<void> {
  const validator = validatorOf(version);
  const operationOf = (url: string) => {
    const path = new URL(http.url(url)).pathname;
    return `GET ${validator.match('GET', path)?.path ?? path}`;
  };
  const fetched = new Map<string, Answer>();
  const get = async (url: string) => {
    let answer = fetched.get(url);
    if (!answer) {
      answer = await http.get(url, version);
      fetched.set(url, answer);
    }
    return answer;
  };
  const queue: Carrier[] = carriersOf((await get('/')).json);
  const seen = new Set<Carrier>();
  while (queue.length && fetched.size < MAX_FETCHES) {
    const carrier = queue.shift()!;
    if (seen.has(carrier)) continue;
    seen.add(carrier);
    for (const [name, link] of Object.entries(carrier.links)) {
      if (typeof link !== 'string') continue;
      const answer = await get(link);
      const operation = operationOf(link);
      if (name === 'self') {
        const body = answer.json;
        const same = isDeepStrictEqual(body, carrier) || (Array.isArray(body) && body.some((item) => isDeepStrictEqual(item, carrier)));
        collector.record(
          { document: version, operation, check: 'links: self returns the resource that carried it' },
          answer.status === 200 && same
            ? undefined
            : http.failure(
                answer,
                `links.self ${link} answered ${answer.status} with another resource than the one that carried it: ${JSON.stringify(carrier).slice(0, 400)}`,
              ),
        );
        continue;
      }
      collector.record(
        { document: version, operation, check: 'links: every other link answers 200' },
        answer.status === 200 ? undefined : http.failure(answer, `links.${name} ${link} answered ${answer.status}`),
      );
      if (answer.status === 200) queue.push(...carriersOf(answer.json));
    }
  }
}
