// paging: `count` honoured; `from_id` continues strictly after that id; newest first; the pages joined equal the
// unpaged list, with no duplicate and no gap. The rules are those of listTransactions' description.
import { escapePointer } from '@aggregation/openapi/contract';
import type { Version } from '@aggregation/openapi/versions';
import type { Collector } from '../report/collect.ts';
import { at, type Check } from './checks.ts';
import type { Http } from './http.ts';
import { rule } from './rules.ts';

type Transaction = { id: string; date: string };
const operation = 'GET /accounts/{account_id}/transactions';
const described = `#/paths/${escapePointer('/accounts/{account_id}/transactions')}/get/description`;
const ids = (list: Transaction[]) => list.map((t) => t.id);

export async function checkPaging(http: Http, collector: Collector, version: Version, accountId: string): Promise<void> {
  const key = (check: Check) => at(version, operation, check);
  const path = `/accounts/${accountId}/transactions`;
  const all = await http.get(path, version);
  const list = all.json as Transaction[];
  if (all.status !== 200 || !Array.isArray(list) || list.length < 3) {
    for (const check of [
      'paging: newest first',
      'paging: count honoured',
      'paging: from_id continues strictly after that id',
      'paging: pages joined equal the unpaged list',
    ] as const) {
      collector.record(
        key(check),
        http.failure(
          all,
          `the unpaged list answered ${all.status} with ${Array.isArray(list) ? list.length : 'no'} transactions; paging needs 3 or more`,
        ),
      );
    }
    return;
  }

  const newest = rule(version, described, 'Transactions come newest first (date descending, then a stable tie-break)');
  const outOfOrder = list.findIndex((t, i) => i > 0 && t.date > list[i - 1]!.date);
  collector.record(
    key('paging: newest first'),
    outOfOrder < 0
      ? undefined
      : http.failure(
          all,
          `transaction ${outOfOrder} (${list[outOfOrder]!.date}) is newer than the one before it (${list[outOfOrder - 1]!.date})`,
          newest,
        ),
    list.length,
  );

  const caps = rule(version, described, '`count` (optional, 1 to 10000) caps how many are returned');
  for (const count of [...new Set([1, 5, Math.min(list.length - 1, 25)])]) {
    const page = await http.get(`${path}?count=${count}`, version);
    const got = Array.isArray(page.json) ? (page.json as Transaction[]) : undefined;
    const expected = Math.min(count, list.length);
    collector.record(
      key('paging: count honoured'),
      page.status === 200 && got?.length === expected
        ? undefined
        : http.failure(page, `count=${count} answered ${page.status} with ${got?.length ?? 'no'} transactions, expected ${expected}`, caps),
    );
  }

  const after = rule(version, described, 'the next call returns only transactions older than that one');
  const position = Math.min(3, list.length - 2);
  const cursor = list[position]!.id;
  const next = await http.get(`${path}?from_id=${encodeURIComponent(cursor)}&count=5`, version);
  const continued = Array.isArray(next.json) ? ids(next.json as Transaction[]) : [];
  const wanted = ids(list.slice(position + 1, position + 6));
  collector.record(
    key('paging: from_id continues strictly after that id'),
    next.status === 200 && JSON.stringify(continued) === JSON.stringify(wanted)
      ? undefined
      : http.failure(
          next,
          `from_id=${cursor} (position ${position} of the unpaged list) answered ${next.status} with ${JSON.stringify(continued)}, expected the next ones ${JSON.stringify(wanted)}`,
          after,
        ),
  );

  const paged = rule(version, described, 'To page, pass the id of the last transaction received as `from_id`');
  const size = Math.max(2, Math.ceil(list.length / 4));
  const joined: string[] = [];
  let last: Awaited<ReturnType<Http['get']>> | undefined;
  // A server that ignores from_id repeats its first page forever: at most one page more than the list needs.
  for (let pages = 0, from: string | undefined; pages <= Math.ceil(list.length / size) + 1; pages++) {
    last = await http.get(`${path}?count=${size}${from ? `&from_id=${encodeURIComponent(from)}` : ''}`, version);
    const page = Array.isArray(last.json) ? (last.json as Transaction[]) : [];
    if (last.status !== 200) break;
    joined.push(...ids(page));
    if (page.length < size) break;
    from = page.at(-1)!.id;
  }
  const expected = ids(list);
  const duplicate = joined.find((id, i) => joined.indexOf(id) !== i);
  const firstDifference = expected.findIndex((id, i) => joined[i] !== id);
  const problem = duplicate
    ? `${duplicate} comes twice in the pages of ${size}`
    : firstDifference >= 0 || joined.length !== expected.length
      ? `the pages of ${size} hold ${joined.length} transactions, the unpaged list ${expected.length}; they differ first at position ${firstDifference >= 0 ? firstDifference : Math.min(joined.length, expected.length)}`
      : undefined;
  collector.record(key('paging: pages joined equal the unpaged list'), problem ? http.failure(last!, problem, paged) : undefined, joined.length);
}
