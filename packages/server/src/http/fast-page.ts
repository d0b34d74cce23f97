// A page of an account's transactions (GET /accounts/{id}/transactions?count=N), answered on the Node server
// before the app when everything about the request is ordinary: a sandbox token whose enrollment has nothing due,
// no failure scenario left and an account it may read; a known Service-Version or none; query values the handler's
// validator accepts, written without escapes. It runs the same steps the app's chain runs for that request
// (authentication's reads, the enrollment's sync, the handler's page join) and writes the same head and bytes; it
// only skips building a Request, routing and the Response the adapter writes back, which cost a page about as much
// as joining it. Anything else, or any doubt, is handed on untouched to the app (`pass`), before anything is written.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { LRUCache } from 'lru-cache';
import { versionOf } from '../domain/applications.ts';
import { isLiveToken } from '../domain/ids.ts';
import { enrollmentStatus, needsSync, syncEnrollment } from '../domain/lifecycle.ts';
import { noteTransactionsFetched, type TransactionFilter } from '../domain/transactions.ts';
import type { EnrollmentRow } from '../storage/store.ts';
import { isVersion } from '../versions/index.ts';
import type { Edge } from './edge.ts';
import type { Runtime } from './env.ts';
import { isJoinedPage, joinedPage, transactionFilter } from './handlers/transactions.ts';
import { keptAccountFor } from './kept-accounts.ts';
import { credentialIn, tokenReads } from './middleware/auth.ts';
import { ENROLLMENT_STATUS_HEADER } from './middleware/enrollment-status.ts';
import { countedRequests, enrollmentCaller } from './middleware/rate-limit.ts';
import type { Validators } from './middleware/validate.ts';
import { originReader, VERSION_HEADER } from './middleware/version.ts';
import { newRequestId, REQUEST_ID_HEADER } from './request-id.ts';
import { requestLogScope } from './request-log.ts';
import { JSON_CONTENT_TYPE, joinedItems } from './respond.ts';
import { ReusedBuffers } from './reused-buffers.ts';

const OPERATION = 'listTransactions';
/** The route, with an id and a query that need no decoding. */
const PAGE_URL = /^\/accounts\/([A-Za-z0-9_]+)\/transactions\?([A-Za-z0-9_=&.:-]+)$/;
/** Query values that read the same whatever parses them. */
const PLAIN = /^[A-Za-z0-9_.:-]+$/;
const REQUEST_ID_NAME = REQUEST_ID_HEADER.toLowerCase();
const ENROLLMENT_STATUS_NAME = ENROLLMENT_STATUS_HEADER.toLowerCase();
const VERSION_NAME = VERSION_HEADER.toLowerCase();
/** A Host the adapter takes as it is (lower case, a port or none). */
const PLAIN_HOST = /^[a-z0-9.-]+(:[0-9]{1,5})?$/;

export interface PageServer {
  (incoming: IncomingMessage, outgoing: ServerResponse, pass: () => void): void;
  /** Pages it answered. */
  answered: number;
}

export interface FastPageOptions {
  edge: Edge;
  validators: Validators;
  /** Absolute base of links; undefined: the origin of each request. */
  publicUrl: string | undefined;
}

/** The query as the app reads it, or undefined when it holds a name twice, an empty part or a name the operation lacks. */
function plainQuery(text: string, names: ReadonlySet<string>): Record<string, string> | undefined {
  const query: Record<string, string> = Object.create(null);
  for (const part of text.split('&')) {
    const at = part.indexOf('=');
    if (at <= 0) return undefined;
    const name = part.slice(0, at);
    const value = part.slice(at + 1);
    if (!names.has(name) || name in query || !PLAIN.test(value)) return undefined;
    query[name] = value;
  }
  return query;
}

/** The Authorization header, when it came once (the app would read repeated ones joined). */
function soleAuthorization(incoming: IncomingMessage): string | undefined {
  const raw = incoming.rawHeaders;
  let found: string | undefined;
  for (let index = 0; index < raw.length; index += 2) {
    if (raw[index]!.length !== 13 || raw[index]!.toLowerCase() !== 'authorization') continue;
    if (found !== undefined) return undefined;
    found = raw[index + 1];
  }
  return found;
}

/** A page's filter: a count the join serves. */
type PageFilter = TransactionFilter & { count: number };

/** What the operation's validator reads of the headers: none of its own (see `pageFilter`). */
const NO_HEADERS = { get: () => null } as unknown as Headers;

/** What the kept answers of `pageFilter` may hold in keys: request lines are as long as a client makes them. */
const MAX_FILTER_KEY_BYTES = 256 * 1024;

/** Free blocks of page memory kept at most: about one for each connection of a busy client. */
const KEPT_BODY_BLOCKS = 32;
/** A page larger than this (a long `count`) frees its memory once written. */
const MAX_KEPT_BODY_BYTES = 1024 * 1024;

/** What the page's response is made of. */
interface Page {
  /** From `bodies`, given back once written. */
  body: Buffer<ArrayBuffer>;
  version: string;
  enrollment: EnrollmentRow;
}

export function fastPage(runtime: Runtime, { edge, validators, publicUrl }: FastPageOptions): PageServer {
  const { deps } = runtime;
  const originOf = originReader();
  // `pageFilter` keeps what a request line validates to, which holds only while no header is the validator's to check.
  for (const [version, validator] of validators.api) {
    if (validator.paramNames(OPERATION, 'header').length > 0)
      throw new Error(`${OPERATION} in ${version} checks headers: its pages cannot be answered here`);
  }
  const bodies = new ReusedBuffers({ maxKept: KEPT_BODY_BLOCKS, maxBlockBytes: MAX_KEPT_BODY_BYTES });
  const queryNames = new Map([...validators.api].map(([version, validator]) => [version, new Set(validator.queryNames(OPERATION))]));
  /** `pageFilter`'s answers (false: not a page this answers), bounded by the bytes of their keys. */
  const filters = new LRUCache<string, PageFilter | false>({ maxSize: MAX_FILTER_KEY_BYTES, sizeCalculation: (_, key) => key.length + 64 });

  /**
   * The page's filter, when the version's validator accepts the account id and query (undefined: the app is to
   * answer). The same request line validates the same way (the operation has no header to check besides the version
   * and authorization, which have middleware of their own), so the answer is kept per version and URL.
   */
  const pageFilter = (version: string, accountId: string, queryText: string): PageFilter | undefined => {
    const key = `${version} ${accountId}?${queryText}`;
    const known = filters.get(key);
    if (known !== undefined) return known || undefined;
    const query = plainQuery(queryText, queryNames.get(version) ?? new Set());
    const validated = query && validators.api.get(version)?.validate(OPERATION, { path: { account_id: accountId }, query, headers: NO_HEADERS });
    const filter = validated?.ok ? transactionFilter(validated.value.params) : undefined;
    const page = filter && isJoinedPage(filter) ? filter : undefined;
    filters.set(key, page ?? false);
    return page;
  };

  /** The page, or undefined when the app is to answer (nothing counted then but what the app will not count again). */
  const render = async (incoming: IncomingMessage): Promise<Page | undefined> => {
    const { headers } = incoming;
    const route = PAGE_URL.exec(incoming.url!);
    if (!route || headers['content-length'] !== undefined || headers['transfer-encoding'] !== undefined) return undefined;
    const accountId = route[1]!;
    const credential = credentialIn(soleAuthorization(incoming));
    if (credential === undefined || isLiveToken(credential.token)) return undefined;
    const requested = headers[VERSION_HEADER.toLowerCase()] as string | undefined;
    if (requested !== undefined && !isVersion(requested.trim())) return undefined;
    const host = headers.host;
    if (publicUrl === undefined && (host === undefined || !PLAIN_HOST.test(host))) return undefined;
    const encrypted = (incoming.socket as { encrypted?: boolean }).encrypted === true;
    const base = publicUrl ?? originOf(`${encrypted ? 'https' : 'http'}://${host}${incoming.url}`);

    const reads = await tokenReads(runtime, credential, incoming);
    const found = reads?.enrollment;
    if (!found || found.revoked_at !== null || found.mode === 'live' || needsSync(deps, found, true) || !deps.institutions.admitsFreely(found)) {
      return undefined;
    }
    const version = requested?.trim() ?? versionOf(reads.application, runtime.defaultVersion);
    const filter = pageFilter(version, accountId, route[2]!);
    if (!filter) return undefined;
    // Throws (and so hands on) when the account is not the enrollment's to read.
    const account = await keptAccountFor(runtime, found, accountId, incoming, { reachesInstitution: true });

    // The app's steps from here, counted as authentication counts: none refuses the request checked above.
    if (runtime.rateLimit?.take(enrollmentCaller(found)) !== undefined) return undefined;
    countedRequests.add(incoming);
    await deps.institutions.admitRequest(deps.store, found);
    const enrollment = await syncEnrollment(deps, found, true);
    await deps.institutions.admitTransactions(deps.store, enrollment);
    const items = await joinedPage({ version, base, enrollment: () => enrollment }, runtime, account, filter);
    if (!items) return undefined;
    await noteTransactionsFetched(deps, enrollment, account);
    return { body: joinedItems(OPERATION, items, (length) => bodies.take(length)), version, enrollment };
  };

  const write = (incoming: IncomingMessage, outgoing: ServerResponse, started: number, { body, version, enrollment }: Page): void => {
    const requestId = newRequestId();
    // As the app's response carries them (its Headers list names lower-cased, in order), then the adapter's length.
    // A flat list: node:http writes it as it is, without an object's keys to walk.
    outgoing.writeHead(200, [
      'content-type',
      JSON_CONTENT_TYPE,
      REQUEST_ID_NAME,
      requestId,
      ENROLLMENT_STATUS_NAME,
      enrollmentStatus(enrollment),
      VERSION_NAME,
      version,
      'Content-Length',
      String(body.byteLength),
    ]);
    // Called once the response is finished, its bytes handed to the operating system; not when it fails.
    outgoing.end(body, () => bodies.give(body));
    serve.answered += 1;
    edge.observe({
      method: 'GET',
      path: incoming.url!.split('?', 1)[0]!,
      status: 200,
      started,
      version,
      requestId,
      scope: requestLogScope(enrollment),
      replayed: false,
    });
  };

  const serve: PageServer = (incoming, outgoing, pass) => {
    if (incoming.method !== 'GET') return pass();
    const started = performance.now();
    render(incoming)
      .then(
        (page) => (page ? write(incoming, outgoing, started, page) : pass()),
        () => pass(),
      )
      .catch((error: Error) => outgoing.destroy(error));
  };
  serve.answered = 0;
  return serve;
}
