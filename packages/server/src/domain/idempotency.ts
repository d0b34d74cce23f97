// Idempotency-Key: a request that creates something (a payment, a payee) is kept under its key, per enrollment (so per
// token), for 72 hours by the enrollment clock. The same key and body answer the stored response again; another body
// is a 422; concurrent requests with one key have one effect (the enrollment's row lock, then the key's uniqueness).
import { createHash } from 'node:crypto';
import type { EnrollmentRow, Repos } from '../storage/store.ts';
import { UniqueViolation } from '../storage/store.ts';
import { enrollmentNow } from './clock.ts';
import { type Deps, transactFor } from './context.ts';
import { ApiError } from './errors.ts';

export const IDEMPOTENCY_RETENTION_MS = 72 * 60 * 60 * 1000;

export interface Idempotent<Body> {
  /** The presented resource: what the key keeps and answers again. */
  body: Body;
  /** The stored answer of an earlier request with the same key: nothing was created now. */
  replayed: boolean;
}

/** Canonical JSON (sorted keys): the same body in JSON or form encoding hashes the same. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/**
 * What a key is compared on: the request's target and its parsed body. Each operation names its target differently
 * (payments the account id, payees `<account id>/payees`), so a key used on one is refused on the other.
 */
export const requestHash = (target: string, input: unknown): string =>
  createHash('sha256')
    .update(`${target}\n${canonical(input)}`)
    .digest('hex');

export interface KeyedRequest {
  enrollment: EnrollmentRow;
  /** The account whose own rows the work writes (and no other rows but the key's). */
  account: string;
  key: string | undefined;
  hash: string;
  /** The status of the answer the key keeps. */
  status: number;
}

/** What a keyed request does in its transaction. */
export interface KeyedWork<Reads, Body> {
  /** Reads asked for together with the enrollment's lock and the key's record (on a server database, one round trip). */
  read: (tx: Repos) => Promise<Reads>;
  /** Sends the writes, not awaited (they go out together with the key's record), and gives the answer to keep. */
  write: (tx: Repos, now: number, reads: Reads) => Promise<Sent<Body>> | Sent<Body>;
}

export interface Sent<Body> {
  body: Body;
  writes: Promise<unknown>[];
}

/**
 * Runs the work once per key: in one transaction with the key's record, so that the effect and the stored answer are
 * committed together. Without a key it simply runs. The enrollment's lock is asked for first (statements on one
 * connection run in order), so the reads after it see every earlier writer's commit.
 */
export async function onceUnderKey<Reads, Body>(deps: Deps, request: KeyedRequest, work: KeyedWork<Reads, Body>): Promise<Idempotent<Body>> {
  const { enrollment, account, key, hash, status } = request;
  const attempt = () =>
    transactFor(
      deps,
      enrollment.id,
      async (tx, _emit, lastWrites): Promise<Idempotent<Body>> => {
        const now = enrollmentNow(deps.now, enrollment);
        const [, stored, reads] = await Promise.all([
          tx.enrollments.getForUpdate(enrollment.id),
          key === undefined ? undefined : tx.idempotency.get(enrollment.id, key),
          work.read(tx),
        ]);
        const expired = stored !== undefined && now - stored.created_at >= IDEMPOTENCY_RETENTION_MS;
        if (stored && !expired) {
          if (stored.request_hash !== hash) {
            throw new ApiError(
              422,
              'idempotency_key_reused',
              'This Idempotency-Key was already used with a different request; use a new key for a new request.',
            );
          }
          return { body: JSON.parse(stored.response) as Body, replayed: true };
        }
        const { body, writes } = await work.write(tx, now, reads);
        // Committed with the transaction's COMMIT: a failure of one (another request stored the key first) commits none.
        lastWrites([
          ...(expired ? [tx.idempotency.delete(enrollment.id, key!)] : []),
          ...writes,
          ...(key === undefined
            ? []
            : [tx.idempotency.insert({ scope: enrollment.id, key, request_hash: hash, status, response: JSON.stringify(body), created_at: now })]),
        ]);
        return { body, replayed: false };
      },
      account,
    );
  try {
    return await attempt();
  } catch (error) {
    // Another writer stored the same key first (a concurrent request): answer from its record.
    if (error instanceof UniqueViolation) return attempt();
    throw error;
  }
}
