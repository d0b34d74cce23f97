// The sandbox tokens `aggregation enroll` made, per server, so that later commands need no --token: they use the
// last enrollment, or the one --enrollment names. Sandbox tokens only, in a file only its owner can read. A server
// is its origin, normalized: `npm start` prints localhost, the CLI's default is 127.0.0.1, and both are one server.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';

interface ServerEnrollments {
  /** The enrollment of the last `aggregation enroll`. */
  last: string;
  tokens: Record<string, string>;
}

type Remembered = Record<string, ServerEnrollments>;

/** The names of this machine's loopback interface that reach the same listener as `localhost`. */
const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * The key of a server: its origin, with `localhost`, `127.0.0.1` and `[::1]` as one host and the default port
 * written out. Paths, a trailing slash, the case of the host and credentials make no difference.
 */
export function serverKey(baseUrl: string): string {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    return baseUrl;
  }
  const host = LOOPBACK_HOSTS.has(url.hostname) ? 'localhost' : url.hostname;
  const port = url.port || (url.protocol === 'https:' ? '443' : url.protocol === 'http:' ? '80' : '');
  return `${url.protocol}//${host}${port ? `:${port}` : ''}`;
}

/** `AGGREGATION_CONFIG`, else `$XDG_CONFIG_HOME/aggregation/sandbox.json`, else `~/.config/aggregation/sandbox.json`. */
export function rememberedPath(env: NodeJS.ProcessEnv = process.env): string {
  if (env.AGGREGATION_CONFIG) return env.AGGREGATION_CONFIG;
  return join(env.XDG_CONFIG_HOME || join(homedir(), '.config'), 'aggregation', 'sandbox.json');
}

function read(path: string): Remembered {
  // A prototype-less object: the file's keys never reach Object.prototype.
  const all: Remembered = Object.create(null);
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(path, 'utf8'));
  } catch {
    return all;
  }
  if (typeof parsed !== 'object' || parsed === null) return all;
  // Files written before servers were keyed by origin hold the URL as given: each entry joins its server's.
  for (const [url, server] of Object.entries(parsed as Record<string, ServerEnrollments>)) {
    if (typeof server !== 'object' || server === null || typeof server.tokens !== 'object' || server.tokens === null) continue;
    const key = serverKey(url);
    const known = all[key];
    all[key] = known ? { last: known.last, tokens: { ...server.tokens, ...known.tokens } } : { last: server.last, tokens: { ...server.tokens } };
  }
  return all;
}

export function rememberEnrollment(baseUrl: string, enrollmentId: string, token: string): void {
  const path = rememberedPath();
  const all = read(path);
  const key = serverKey(baseUrl);
  const server = all[key] ?? { last: enrollmentId, tokens: {} };
  all[key] = { last: enrollmentId, tokens: { ...server.tokens, [enrollmentId]: token } };
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  writeFileSync(path, `${JSON.stringify(all, null, 2)}\n`, { mode: 0o600 });
}

/** The token of `enrollmentId`, or of the last enrollment made on this server. */
export function rememberedToken(baseUrl: string, enrollmentId?: string): string | undefined {
  const server = read(rememberedPath())[serverKey(baseUrl)];
  if (!server) return undefined;
  const id = enrollmentId ?? server.last;
  return Object.hasOwn(server.tokens, id) ? server.tokens[id] : undefined;
}
