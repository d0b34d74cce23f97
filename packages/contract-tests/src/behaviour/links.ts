// links: from the entrypoint, every `links.self` fetched returns the resource that carried it (the same object, or an
// array holding it, as for the older version's balances), and every other link answers 200. Lists are followed through
// their first few items, so that a long transaction history costs a few requests. On the way, what an account's links
// lead to names that account (`account_id`, `links.account`), and the accounts of the token share one enrollment.
import { isDeepStrictEqual } from 'node:util';
import type { Version } from '@aggregation/openapi/versions';
import { validatorOf } from '../coverage.ts';
import type { Collector } from '../report/collect.ts';
import { at } from './checks.ts';
import type { Answer, Http } from './http.ts';
import { rule } from './rules.ts';

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
  const named = accountNaming(http, collector, version);
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
          at(version, operation, 'links: self returns the resource that carried it'),
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
        at(version, operation, 'links: every other link answers 200'),
        answer.status === 200 ? undefined : http.failure(answer, `links.${name} ${link} answered ${answer.status}`),
      );
      if (answer.status !== 200) continue;
      const carriers = carriersOf(answer.json);
      queue.push(...carriers);
      if (operation === 'GET /accounts') named.list(answer);
      if (operation === 'GET /accounts' || operation === 'GET /accounts/{account_id}') for (const account of carriers) named.accounts.add(account);
      else if (named.accounts.has(carrier)) named.owned(operation, answer, carrier, carriers);
    }
  }
}

/** `consistency: every resource of an account names it`, judged on what the links check fetches anyway. */
function accountNaming(http: Http, collector: Collector, version: Version) {
  const check = (operation: string) => at(version, operation, 'consistency: every resource of an account names it');
  const ownerRule = () => rule(version, '#/components/schemas/ResourceLinks/properties/account/description', 'The owning account.');
  return {
    /** The carriers that are accounts. */
    accounts: new Set<Carrier>(),
    /** The accounts of one token: one enrollment, one institution. */
    list(answer: Answer) {
      const accounts = Array.isArray(answer.json) ? (answer.json as Carrier[]) : [];
      const enrollments = new Set(accounts.map((a) => JSON.stringify(a.enrollment_id)));
      const institutions = new Set(accounts.map((a) => JSON.stringify(a.institution)));
      collector.record(
        check('GET /accounts'),
        enrollments.size <= 1 && institutions.size <= 1
          ? undefined
          : http.failure(
              answer,
              `the token's accounts name the enrollments ${[...enrollments].join(', ')} and the institutions ${[...institutions].join(', ')}`,
              rule(version, '#/paths/~1accounts/get/description', 'in the enrollment identified by the access token'),
            ),
      );
    },
    /** What an account's link led to names that account. */
    owned(operation: string, answer: Answer, account: Carrier, carriers: Carrier[]) {
      const wrong = carriers.flatMap((item) => [
        ...('account_id' in item && item.account_id !== account.id ? [`account_id ${JSON.stringify(item.account_id)}`] : []),
        ...('account' in item.links && item.links.account !== account.links.self ? [`links.account ${JSON.stringify(item.links.account)}`] : []),
      ]);
      collector.record(
        check(operation),
        wrong.length
          ? http.failure(answer, `reached from account ${account.id} (${account.links.self}), it names ${wrong.slice(0, 3).join(', ')}`, ownerRule())
          : undefined,
        carriers.length,
      );
    },
  };
}
