// The Hono environment of the app: what middleware hands to handlers.
import type { IncomingMessage } from 'node:http';
import type { Context } from 'hono';
import type { Deps } from '../domain/context.ts';
import type { SandboxLimits } from '../domain/limits.ts';
import type { AccountRow, ApplicationRow, EnrollmentRow } from '../storage/store.ts';
import type { TargetPolicy } from '../webhooks/targets.ts';
import type { KeptReads } from './kept-reads.ts';
import type { KnownTokens } from './known-tokens.ts';
import type { RenderedRows } from './rendered-rows.ts';
import type { RequestLog } from './request-log.ts';
import type { TokenBuckets } from './token-buckets.ts';

export interface AppVariables {
  /** The version serving the request. */
  version: string;
  /** Sent as the Request-Id header; error bodies repeat it. */
  requestId: string;
  /** Absolute base of the links in responses. */
  base: string;
  /** Set by the authentication middleware. */
  enrollment: EnrollmentRow;
  /** Set by the authentication middleware: the enrollment's application. */
  application: ApplicationRow;
  /** Set by the validation middleware: coerced parameters and the body. */
  params: Record<string, unknown>;
  body: unknown;
  /** Set by the read cache's capture: receives the JSON of a 200 response to keep (text, or its UTF-8 bytes). */
  keepBody?: (body: string | Buffer) => void;
}

export interface AppEnv {
  /** Present when served by the Node adapter; absent for in-process `fetch`. */
  Bindings: { incoming?: IncomingMessage } | undefined;
  Variables: AppVariables;
}

export type AppContext = Context<AppEnv>;

/** Shared by the routes: the domain dependencies and the app's settings. */
export interface Runtime {
  deps: Deps;
  /** The server's default version: of the default application until it upgrades, and of new applications. */
  defaultVersion: string;
  /** Absolute base of the links in webhook payloads (startServer sets its own address unless PUBLIC_URL is given). */
  publicUrl: string;
  sandbox: boolean;
  /** Per-caller request budgets; undefined when requests are not limited. */
  rateLimit: TokenBuckets | undefined;
  /** The streams of `GET /sandbox/logs`. */
  requestLog: RequestLog;
  /** Whether enrollments made without an application key belong to the default application. */
  defaultApplication: boolean;
  limits: SandboxLimits;
  /** Which webhook URLs may be set and delivered to. */
  webhookTargets: TargetPolicy;
  /** The JSON of transactions rendered so far, per row version (pages join it). */
  renderedRows: RenderedRows;
  /** What authentication read for each token, while current. */
  knownTokens: KnownTokens;
  /** The account rows requests named, while current (kept-accounts.ts). */
  keptAccounts: KeptReads<AccountRow>;
}

/** The TCP peer of the request (what the limits per client address count); null in-process. */
export const clientAddressOf = (c: AppContext): string | null => c.env?.incoming?.socket.remoteAddress ?? null;
