// The many-integrators mix: each request picks one of many enrollments at random and reads its accounts, a
// balance, a transactions page (count=100, sometimes with from_id) or one transaction; 5 % are payments, each
// with a fresh Idempotency-Key. The mix is a pool of concrete requests drawn once (ids read from the server),
// so that the limit can replay each one's recorded bytes; every load request picks one from the pool at random.
import { randomUUID } from 'node:crypto';
import type { Request, RequestParams } from 'autocannon';
import pMap from 'p-map';
import type { Enrolled } from './enroll.ts';
import { expectStatus, type RecordedResponse } from './http.ts';

export const PAYMENT_BODY = JSON.stringify({
  amount: '0.01',
  memo: 'bench',
  payee: { scheme: 'zelle', address: 'bench@example.com', name: 'Bench Payee', type: 'person' },
});

/** Shares of the mix, in percent. */
export const MIX_SHARES = { accounts: 25, balances: 25, page: 20, 'page from_id': 10, transaction: 15, payment: 5 } as const;
export type MixKind = keyof typeof MIX_SHARES;

export interface MixEntry {
  kind: MixKind;
  method: 'GET' | 'POST';
  /** The request's path on the server (and on Prism). */
  path: string;
  authorization: string;
  /** The path under which the limit replays this entry's bytes: unique per entry (GET /accounts is one path for every token). */
  replayPath: string;
}

const pick = <T>(items: readonly T[]): T => items[Math.floor(Math.random() * items.length)]!;

function pickKind(): MixKind {
  let roll = Math.random() * 100;
  for (const [kind, share] of Object.entries(MIX_SHARES) as [MixKind, number][]) {
    roll -= share;
    if (roll < 0) return kind;
  }
  return 'accounts';
}

/** `size` requests of the mix over `enrolled`, drawn at random; first pages are read from `baseUrl` for their ids. */
export async function drawMix(baseUrl: string, enrolled: Enrolled[], size: number, concurrency = 10): Promise<MixEntry[]> {
  const draws = Array.from({ length: size }, (_, index) => {
    const e = pick(enrolled);
    return { index, e, account: pick(e.accounts), kind: pickKind() };
  });
  // The transaction ids of each account a draw needs them for, from its first page.
  const needIds = new Map(draws.filter((d) => d.kind === 'page from_id' || d.kind === 'transaction').map((d) => [d.account.id, d.e] as const));
  const pages = await pMap(
    [...needIds],
    async ([accountId, e]) => {
      const recorded = await expectStatus(
        `${baseUrl}/accounts/${accountId}/transactions?count=100`,
        { headers: { authorization: e.authorization } },
        200,
      );
      return [accountId, (JSON.parse(Buffer.from(recorded.body).toString()) as { id: string }[]).map((t) => t.id)] as const;
    },
    { concurrency },
  );
  const idsOf = new Map(pages);
  return draws.map(({ index, e, account, kind }): MixEntry => {
    const entry = (method: MixEntry['method'], path: string, replayPath = path) => ({ kind, method, path, authorization: e.authorization, replayPath });
    const ids = idsOf.get(account.id) ?? [];
    switch (kind) {
      case 'accounts':
        return entry('GET', '/accounts', `/accounts?entry=${index}`);
      case 'balances':
        return entry('GET', `/accounts/${account.id}/balances`);
      case 'page':
        return entry('GET', `/accounts/${account.id}/transactions?count=100`);
      case 'page from_id': {
        // Not the oldest of the first page, so that the page has transactions after it.
        const from = ids.slice(0, -1);
        return entry('GET', `/accounts/${account.id}/transactions?count=100${from.length ? `&from_id=${pick(from)}` : ''}`);
      }
      case 'transaction':
        return entry('GET', ids.length ? `/accounts/${account.id}/transactions/${pick(ids)}` : `/accounts/${account.id}`);
      default: {
        // A payment, from the enrollment's account that can pay.
        const payer = e.accounts.find((a) => a.links.payments) ?? account;
        return entry('POST', `/accounts/${payer.id}/payments`, `/accounts/${payer.id}/payments?entry=${index}`);
      }
    }
  });
}

/** Each entry's response from the server, by replay path: what the limit sends back. */
export async function recordMix(baseUrl: string, entries: MixEntry[], concurrency = 10): Promise<Record<string, RecordedResponse>> {
  const responses = await pMap(entries, (entry) => expectStatus(baseUrl + entry.path, mixInit(entry), entry.method === 'POST' ? 202 : 200), {
    concurrency,
  });
  return Object.fromEntries(entries.map((entry, i) => [entry.replayPath, responses[i]!]));
}

function mixInit(entry: MixEntry): RequestInit {
  return entry.method === 'POST'
    ? {
        method: 'POST',
        headers: { authorization: entry.authorization, 'content-type': 'application/json', 'idempotency-key': randomUUID() },
        body: PAYMENT_BODY,
      }
    : { headers: { authorization: entry.authorization } };
}

/**
 * autocannon's per-request hook for the mix: a random entry of the pool, sent as the server gets it or, with
 * `replay`, on its replay path (the limit routes by URL alone). Payments get a fresh Idempotency-Key each.
 */
export function mixRequest(entries: MixEntry[], options: { replay?: boolean } = {}): Request['setupRequest'] {
  const prefix = randomUUID();
  let sequence = 0;
  return (request: RequestParams): RequestParams => {
    const entry = pick(entries);
    const path = options.replay ? entry.replayPath : entry.path;
    if (entry.method === 'GET') return { ...request, method: 'GET', path, headers: { authorization: entry.authorization } };
    return {
      ...request,
      method: 'POST',
      path,
      headers: { authorization: entry.authorization, 'content-type': 'application/json', 'idempotency-key': `${prefix}-${sequence++}` },
      body: PAYMENT_BODY,
    };
  };
}

/**
 * A read of the many-URLs load (memory, history-load): a random enrollment's accounts, an account, its balances,
 * or a page of its transactions of a random size, so that the read cache keeps filling with new keys.
 */
export function randomRead(enrolled: Enrolled[]): Request['setupRequest'] {
  return (request: RequestParams): RequestParams => {
    const e = pick(enrolled);
    const account = pick(e.accounts);
    const roll = Math.random();
    const path =
      roll < 0.15
        ? '/accounts'
        : roll < 0.3
          ? `/accounts/${account.id}`
          : roll < 0.5
            ? `/accounts/${account.id}/balances`
            : `/accounts/${account.id}/transactions?count=${50 + Math.floor(Math.random() * 151)}`;
    return { ...request, method: 'GET', path, headers: { authorization: e.authorization } };
  };
}

/** How many requests of each kind a pool holds, for the notes. */
export function describeMix(entries: MixEntry[]): string {
  const counts: Record<string, number> = {};
  for (const entry of entries) counts[entry.kind] = (counts[entry.kind] ?? 0) + 1;
  return Object.entries(counts)
    .map(([kind, count]) => `${kind} ${count}`)
    .join(', ');
}
