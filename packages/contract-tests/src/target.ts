// The server under test: either this repository's server, started here on a free port with a fresh database in a
// temporary directory, or a server the user names with --base-url (and, without a sandbox control API, --token).
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export type Enrollment = { token: string; accounts: { id: string; name: string; subtype: string; status: string }[] };

export type Target = {
  baseUrl: string;
  /** The repository's server, started by this run (its logs and its reach are known). */
  local: boolean;
  /** Whether the server serves the sandbox control API (POST /sandbox/enrollments and the rest). */
  sandbox: boolean;
  /** A token for the suites that need no particular sandbox user; fresh per call when the sandbox is served. */
  token(): Promise<string>;
  /** Enrolls a sandbox user (password `password`); only when `sandbox` is true. */
  enroll(username: string): Promise<Enrollment>;
  /** Unexpected errors the server logged (only known for the server started here). */
  serverErrors: string[];
  close(): Promise<void>;
};

export async function enrollSandboxUser(baseUrl: string, username: string, attempts = 2): Promise<Enrollment> {
  let response: Response;
  try {
    response = await fetch(`${baseUrl}/sandbox/enrollments`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username, password: 'password' }),
    });
  } catch (error) {
    // A kept-alive connection the server closes just as a request leaves on it fails that request, and fetch
    // retries no POST: enroll again (one more sandbox enrollment is harmless).
    if (attempts > 1) return enrollSandboxUser(baseUrl, username, attempts - 1);
    throw error;
  }
  if (response.status !== 201) throw new Error(`POST /sandbox/enrollments (${username}) answered ${response.status}: ${await response.text()}`);
  const body = (await response.json()) as { access_token: string; accounts: Enrollment['accounts'] };
  return { token: body.access_token, accounts: body.accounts };
}

/**
 * Starts the repository's server in this process on 127.0.0.1 and a free port, on an empty SQLite file, or on the
 * empty PostgreSQL database `databaseUrl` names.
 */
export async function startLocalTarget(databaseUrl?: string): Promise<Target> {
  // Imported here so that checking a server elsewhere does not need this one to load.
  const { startServer } = await import('@aggregation/server');
  const dir = await mkdtemp(join(tmpdir(), 'contract-tests-'));
  const serverErrors: string[] = [];
  const server = await startServer({
    port: 0,
    hostname: '127.0.0.1',
    ...(databaseUrl ? { databaseUrl } : { databasePath: join(dir, 'sandbox.sqlite') }),
    logError: (error) => void serverErrors.push(error instanceof Error ? (error.stack ?? error.message) : String(error)),
  });
  const baseUrl = server.url;
  return {
    baseUrl,
    local: true,
    sandbox: true,
    token: async () => (await enrollSandboxUser(baseUrl, 'username')).token,
    enroll: (username) => enrollSandboxUser(baseUrl, username),
    serverErrors,
    async close() {
      await server.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** A server elsewhere. Its sandbox control API is used when it answers; otherwise `token` must be given. */
export async function externalTarget(baseUrl: string, token: string | undefined): Promise<Target> {
  const url = baseUrl.replace(/\/+$/, '');
  let sandbox: boolean;
  try {
    const probe = await fetch(`${url}/sandbox/enrollments`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'username', password: 'password' }),
    });
    await probe.body?.cancel();
    sandbox = probe.status === 201;
  } catch (error) {
    throw new Error(`cannot reach ${url}: ${(error as Error & { cause?: Error }).cause?.message ?? (error as Error).message}`);
  }
  if (!sandbox && !token) {
    throw new Error(`${url} has no sandbox control API (POST /sandbox/enrollments failed): pass a sandbox token with --token`);
  }
  return {
    baseUrl: url,
    local: false,
    sandbox,
    token: async () => token ?? (await enrollSandboxUser(url, 'username')).token,
    enroll: (username) => {
      if (!sandbox) throw new Error(`${url} has no sandbox control API`);
      return enrollSandboxUser(url, username);
    },
    serverErrors: [],
    close: async () => {},
  };
}
