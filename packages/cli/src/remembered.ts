// The sandbox tokens `aggregation enroll` made, per server, so that later commands need no --token: they use the
// last enrollment, or the one --enrollment names. Sandbox tokens only, in a file only its owner can read.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';

interface ServerEnrollments {
  /** The enrollment of the last `aggregation enroll`. */
  last: string;
  tokens: Record<string, string>;
}

type Remembered = Record<string, ServerEnrollments>;

/** `AGGREGATION_CONFIG`, else `$XDG_CONFIG_HOME/aggregation/sandbox.json`, else `~/.config/aggregation/sandbox.json`. */
export function rememberedPath(env: NodeJS.ProcessEnv = process.env): string {
  if (env.AGGREGATION_CONFIG) return env.AGGREGATION_CONFIG;
  return join(env.XDG_CONFIG_HOME || join(homedir(), '.config'), 'aggregation', 'sandbox.json');
}

function read(path: string): Remembered {
  try {
    const parsed: unknown = JSON.parse(readFileSync(path, 'utf8'));
    // Read into a prototype-less object: the file's keys never reach Object.prototype.
    return typeof parsed === 'object' && parsed !== null ? Object.assign(Object.create(null), parsed) : Object.create(null);
  } catch {
    return Object.create(null);
  }
}

export function rememberEnrollment(baseUrl: string, enrollmentId: string, token: string): void {
  const path = rememberedPath();
  const all = read(path);
  const server = all[baseUrl] ?? { last: enrollmentId, tokens: {} };
  all[baseUrl] = { last: enrollmentId, tokens: { ...server.tokens, [enrollmentId]: token } };
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  writeFileSync(path, `${JSON.stringify(all, null, 2)}\n`, { mode: 0o600 });
}

/** The token of `enrollmentId`, or of the last enrollment made on this server. */
export function rememberedToken(baseUrl: string, enrollmentId?: string): string | undefined {
  const server = read(rememberedPath())[baseUrl];
  if (!server || typeof server.tokens !== 'object') return undefined;
  const id = enrollmentId ?? server.last;
  return Object.hasOwn(server.tokens, id) ? server.tokens[id] : undefined;
}
