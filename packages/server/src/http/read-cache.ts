// Rendered read responses, replayed at the HTTP edge. A GET of the API that a handler answered
// with 200 is kept, byte for byte, under everything that shaped it (URL, Host, Authorization,
// Service-Version). It is replayed only while the store has seen no commit since it was
// rendered (from this process or another on the same database), or, for a token's read, no commit
// that may have changed that enrollment's rows (the store's scoped revision), and while the
// enrollment's clock has not reached its next state change; otherwise the request goes to the
// app as usual.
// Validity is checked once per turn of the event loop for the requests it read (see `check`), on
// PostgreSQL once the other processes' commits made so far are known (`Store.syncChanges`).
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { TLSSocket } from 'node:tls';
import type { MiddlewareHandler } from 'hono';
import { LRUCache } from 'lru-cache';
import type { Now } from '../domain/clock.ts';
import type { ActivityShown, EnrollmentRow, Store } from '../storage/store.ts';
import type { AppEnv } from './env.ts';
import { syncedRequests } from './kept-reads.ts';
import { enrollmentCaller } from './middleware/rate-limit.ts';
import { VERSION_HEADER } from './middleware/version.ts';
import { ownBytes } from './own-bytes.ts';
import { REQUEST_ID_HEADER } from './request-id.ts';
import { requestLogScope } from './request-log.ts';

export interface ReadCacheOptions {
  /** Memory budget of the kept responses, bodies, keys and headers (default 48 MiB); least recently used go first. */
  maxBytes?: number;
  /** Larger bodies are not kept (default 512 KiB). */
  maxEntryBytes?: number;
}

export const DEFAULT_READ_CACHE_BYTES = 48 * 1024 * 1024;

/** What an entry holds beside its body, key and headers: the entry, its headers object, the LRU's slots. */
const ENTRY_OVERHEAD_BYTES = 512;

export interface Entry {
  /** The store's change mark when the response was rendered, or when it was last found valid. */
  mark: string;
  /**
   * A token's read: its enrollment, the account activity it shows (see `capture`), and the store's scoped revision
   * of them when rendered (where the store keeps one).
   */
  scoped: { enrollmentId: string; activity: ActivityShown | undefined; revision: string } | undefined;
  /** Real time at which the enrollment's state machines next have work to do. */
  expiresAt: number;
  /** Live enrollments: the request must come with a verified TLS client certificate. */
  live: boolean;
  /** The rate limit's caller for the enrollment that read it; undefined for reads without a token (by address). */
  caller: string | undefined;
  /** The request log's scope of the requests it answers. */
  scope: string | undefined;
  /** The head's fields as a flat list of names and values, without Request-Id: each replay sends its own. */
  head: readonly string[];
  /** The Service-Version answered ('' for none), for the logs. */
  version: string;
  body: Buffer;
}

/** What shapes a read's response; undefined for requests that are never replayed. */
export function readCacheKey(incoming: IncomingMessage): string | undefined {
  if (incoming.method !== 'GET' || incoming.url === undefined) return undefined;
  const { headers } = incoming;
  return `${headers.authorization ?? ''}\n${headers[VERSION_HEADER.toLowerCase()] ?? ''}\n${headers.host ?? ''}\n${incoming.url}`;
}

/**
 * The memory an entry holds, as counted against the budget. Strings count two bytes a character (V8 may keep
 * them as UTF-16).
 */
export function entryBytes(key: string, entry: Pick<Entry, 'head' | 'body'>): number {
  let head = 0;
  for (const field of entry.head) head += field.length;
  return entry.body.byteLength + 2 * (key.length + head) + ENTRY_OVERHEAD_BYTES;
}

/** The enrollment's next state change, in real time (its clock runs at an offset). */
function expiryOf(enrollment: EnrollmentRow | undefined): number {
  if (!enrollment || enrollment.next_due_at === null) return Number.POSITIVE_INFINITY;
  return enrollment.next_due_at - enrollment.clock_offset_ms;
}

interface Waiting {
  key: string;
  entry: Entry;
  incoming: IncomingMessage;
  decide: (entry: Entry | undefined) => void;
}

export class ReadCache {
  private readonly entries: LRUCache<string, Entry>;
  private readonly maxEntryBytes: number;
  private readonly store: Store;
  private readonly now: Now;
  /** Requests waiting for this turn's check of the change mark, and the check's scheduled run. */
  private waiting: Waiting[] = [];
  private flush: NodeJS.Immediate | undefined;
  hits = 0;
  misses = 0;

  constructor(store: Store, now: Now, options: ReadCacheOptions = {}) {
    this.store = store;
    this.now = now;
    this.maxEntryBytes = options.maxEntryBytes ?? 512 * 1024;
    this.entries = new LRUCache<string, Entry>({
      maxSize: options.maxBytes ?? DEFAULT_READ_CACHE_BYTES,
      sizeCalculation: (entry, key) => entryBytes(key, entry),
    });
  }

  /** Bytes counted against the budget (`maxBytes`). */
  get keptBytes(): number {
    return this.entries.calculatedSize;
  }

  /** Whether a response is kept for `key` (without making it recently used). */
  keeps(key: string): boolean {
    return this.entries.has(key);
  }

  /** Keeps a rendered response, evicting the least recently used beyond the budget; too large ones are not kept. */
  keep(key: string, entry: Entry): void {
    if (entry.body.byteLength > this.maxEntryBytes) return;
    this.entries.set(key, entry);
  }

  /**
   * Answers `decide` with the kept response for this request if it is still valid, or with undefined if it went
   * stale; returns false at once, without calling `decide`, when nothing is kept for `key`. Validity is checked
   * once per turn of the event loop, after the turn has read its requests: the store's change mark is always read
   * after the request arrived, so a commit acknowledged before the request was sent is seen, and the requests
   * of one turn share one read of the mark (on SQLite, a read of the WAL-index header).
   */
  check(key: string, incoming: IncomingMessage, decide: (entry: Entry | undefined) => void): boolean {
    const entry = this.entries.get(key);
    if (!entry) {
      this.misses += 1;
      return false;
    }
    // Not kept apart per connection: a live replay needs this connection's certificate too.
    if (entry.live && (incoming.socket as TLSSocket).authorized !== true) return false;
    this.waiting.push({ key, entry, incoming, decide });
    this.flush ??= setImmediate(this.checkWaiting);
    return true;
  }

  private readonly checkWaiting = (): void => {
    const waiting = this.waiting;
    this.waiting = [];
    this.flush = undefined;
    // Where other processes' commits are learned late (PostgreSQL), first wait until those made so far are known.
    if (this.store.syncChanges) this.store.syncChanges((current) => (current ? this.decide(waiting) : this.render(waiting)));
    else this.decide(waiting);
  };

  /** Lets every waiting request through to the app: its kept response cannot be vouched for. */
  private render(waiting: Waiting[]): void {
    for (const { key, entry, decide } of waiting) {
      if (this.entries.peek(key) === entry) this.entries.delete(key);
      this.misses += 1;
      decide(undefined);
    }
  }

  private decide(waiting: Waiting[]): void {
    // What goes on to the app after this check needs no barrier of its own (known-tokens.ts).
    if (this.store.syncChanges) for (const { incoming } of waiting) syncedRequests.add(incoming);
    const mark = this.store.changeMark();
    const now = this.now();
    // Read after the mark: a commit in between shows in one or the other.
    const revisions = new Map<string, string>();
    const unchanged = (entry: Entry): boolean => {
      if (entry.mark === mark) return true;
      const { scoped } = entry;
      if (!scoped || !this.store.scopedRevision) return false;
      const { enrollmentId, activity } = scoped;
      const of = `${enrollmentId}\n${activity === undefined ? '*' : activity === 'none' ? '' : activity.account}`;
      let revision = revisions.get(of);
      if (revision === undefined) {
        revision = this.store.scopedRevision(enrollmentId, activity);
        revisions.set(of, revision);
      }
      if (revision !== scoped.revision) return false;
      // Nothing of the enrollment's changed up to `mark`: the next check at this mark needs no revision.
      entry.mark = mark;
      return true;
    };
    for (const { key, entry, decide } of waiting) {
      if (now >= entry.expiresAt || !unchanged(entry)) {
        if (this.entries.peek(key) === entry) this.entries.delete(key);
        this.misses += 1;
        decide(undefined);
      } else {
        this.hits += 1;
        decide(entry);
      }
    }
  }

  /**
   * Route middleware: keeps the response when the handler produced a JSON body (`keepBody`)
   * and nothing was committed while it was rendered. `shows`: the account activity the route's reads show, when
   * known: none, or that of the account the path parameter names (its 200 answers only come from an account of the
   * token's enrollment).
   */
  capture(shows?: 'none' | { accountParam: string }): MiddlewareHandler<AppEnv> {
    return async (c, next) => {
      const incoming = c.env?.incoming;
      const key = incoming && readCacheKey(incoming);
      if (!key) return next();
      const mark = this.store.changeMark();
      let body: string | Buffer | undefined;
      c.set('keepBody', (rendered: string | Buffer) => {
        body = rendered;
      });
      await next();
      if (body === undefined || c.res.status !== 200 || body.length > this.maxEntryBytes) return;
      const enrollment = c.get('enrollment') as EnrollmentRow | undefined;
      const activity: ActivityShown | undefined = shows === 'none' || shows === undefined ? shows : { account: c.req.param(shows.accountParam) ?? '' };
      // Read before the mark is compared: unchanged, no commit came after the render's reads. Where the store tells
      // commits apart by enrollment (and account), only those that touch this one's reads count.
      const revision = enrollment && this.store.scopedRevision?.(enrollment.id, activity);
      const changed = this.store.changedSince ? this.store.changedSince(enrollment?.id, mark, activity) : this.store.changeMark() !== mark;
      if (changed) return;
      const bytes = ownBytes(body);
      const head: string[] = [];
      for (const [name, value] of c.res.headers) if (name !== 'content-length' && name !== REQUEST_ID_HEADER.toLowerCase()) head.push(name, value);
      head.push('content-length', String(bytes.length));
      this.keep(key, {
        mark,
        scoped: enrollment && revision !== undefined ? { enrollmentId: enrollment.id, activity, revision } : undefined,
        expiresAt: expiryOf(enrollment),
        live: enrollment?.mode === 'live',
        caller: enrollment ? enrollmentCaller(enrollment) : undefined,
        scope: requestLogScope(enrollment),
        head,
        version: c.res.headers.get(VERSION_HEADER) ?? '',
        body: bytes,
      });
    };
  }
}

/** Writes a kept response under a fresh request id; the caller has checked rate limits. */
export function replay(entry: Entry, outgoing: ServerResponse, requestId: string): void {
  // A flat list: node:http writes it as it is, without an object to build and walk.
  outgoing.writeHead(200, [...entry.head, REQUEST_ID_HEADER, requestId]);
  outgoing.end(entry.body);
}
