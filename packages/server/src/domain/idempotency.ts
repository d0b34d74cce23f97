// Idempotency-Key: a request that creates something (a payment, a payee) is kept under its key, per enrollment (so per
// token), for 72 hours by the enrollment clock. The same key and body answer the stored response again; another body
// is a 422; concurrent requests with one key have one effect (the enrollment's row lock, then the key's uniqueness).
// A request that needs the user's approval keeps its MFA challenge under the key instead (connect-tokens.ts): while
// the challenge is pending the key answers it again, once approved the request takes effect (and the key keeps that
// answer from then on), once expired the key gets a new challenge.
import { createHash } from 'node:crypto';
import type { EnrollmentRow, IdempotencyRow, Repos } from '../storage/store.ts';
import { UniqueViolation } from '../storage/store.ts';
import { enrollmentNow } from './clock.ts';
import { type ApprovalNeeded, connectTokenStatus, type MfaChallenge, newChallenge } from './connect-tokens.ts';
import { type Deps, transactFor } from './context.ts';
import { ApiError } from './errors.ts';

export const IDEMPOTENCY_RETENTION_MS = 72 * 60 * 60 * 1000;

export interface Idempotent<Body> {
  /** The presented resource: what the key keeps and answers again. */
  body: Body;
  /** The stored answer of an earlier request with the same key: nothing was created now. */
  replayed: boolean;
}

/** What a keyed request answers: its resource, or the MFA challenge it waits on. */
export type KeyedAnswer<Body> = ({ kind: 'done' } & Idempotent<Body>) | ({ kind: 'challenge' } & Idempotent<MfaChallenge>);

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
  /** Set when the request needs its user's approval first: it answers an MFA challenge until approved. */
  approval?: ApprovalNeeded | undefined;
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
 * connection run in order), so the reads after it see every earlier writer's commit. A request that needs approval
 * answers a challenge instead, until the challenge its key keeps is approved.
 */
export async function onceUnderKey<Reads, Body>(deps: Deps, request: KeyedRequest, work: KeyedWork<Reads, Body>): Promise<KeyedAnswer<Body>> {
  const { enrollment, account, key, hash, status, approval } = request;
  const attempt = () =>
    transactFor(
      deps,
      enrollment.id,
      async (tx, _emit, lastWrites): Promise<KeyedAnswer<Body>> => {
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
          // Only a key that keeps a challenge costs the challenge's read: every other key answers as it always did.
          if (stored.connect_token_hash) return retryOfChallenge(stored);
          return { kind: 'done', body: JSON.parse(stored.response) as Body, replayed: true };
        }
        const before = expired ? [tx.idempotency.delete(enrollment.id, key!)] : [];
        if (approval) {
          const { answer, row } = newChallenge(enrollment, request, approval, now);
          const kept =
            key === undefined ? [] : [tx.idempotency.insert(keyRecord(key, { status: 200, response: answer, now, challenge: row.token_hash }))];
          lastWrites([...before, tx.connectTokens.insert(row), ...kept]);
          return { kind: 'challenge', body: answer, replayed: false };
        }
        const { body, writes } = await work.write(tx, now, reads);
        // Committed with the transaction's COMMIT: a failure of one (another request stored the key first) commits none.
        lastWrites([...before, ...writes, ...(key === undefined ? [] : [tx.idempotency.insert(keyRecord(key, { status, response: body, now }))])]);
        return { kind: 'done', body, replayed: false };

        /** The key keeps a challenge: answer it again, take effect once it is approved, or challenge anew once it expired. */
        async function retryOfChallenge(stored: IdempotencyRow): Promise<KeyedAnswer<Body>> {
          const tokenHash = stored.connect_token_hash!;
          const token = await tx.connectTokens.get(tokenHash);
          const state = token ? connectTokenStatus(token, now) : 'expired';
          if (state === 'pending') return { kind: 'challenge', body: JSON.parse(stored.response) as MfaChallenge, replayed: true };
          if (state === 'approved') {
            const { body, writes } = await work.write(tx, now, reads);
            lastWrites([
              ...writes,
              tx.connectTokens.update(tokenHash, { status: 'completed', completed_at: now }),
              tx.idempotency.update(enrollment.id, key!, { status, response: JSON.stringify(body), connect_token_hash: null }),
            ]);
            return { kind: 'done', body, replayed: false };
          }
          // Expired (a completed token's key keeps the answer instead): the same request waits on a new challenge.
          const needed = approval ?? (token && { operation: token.operation, request: JSON.parse(token.request) as unknown });
          if (!needed) throw new Error(`the challenge kept under the key ${key} has no connect token`);
          const { answer, row } = newChallenge(enrollment, request, needed, now);
          lastWrites([
            tx.connectTokens.insert(row),
            tx.idempotency.update(enrollment.id, key!, { response: JSON.stringify(answer), connect_token_hash: row.token_hash }),
          ]);
          return { kind: 'challenge', body: answer, replayed: false };
        }

        function keyRecord(key: string, kept: { status: number; response: unknown; now: number; challenge?: string }): IdempotencyRow {
          return {
            scope: enrollment.id,
            key,
            request_hash: hash,
            status: kept.status,
            response: JSON.stringify(kept.response),
            created_at: kept.now,
            // Set only for a challenge: every other key's record is written as it always was.
            ...(kept.challenge ? { connect_token_hash: kept.challenge } : {}),
          };
        }
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
