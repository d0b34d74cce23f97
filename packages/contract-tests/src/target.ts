// The server under test and the sandbox the run works in. A server elsewhere is named with --base-url; without it the
// run starts @aggregation/server here (an optional peer dependency) on a fresh SQLite file. When the server offers
// `POST /sandbox/applications`, the run creates an application of its own and makes every enrollment with its key, so
// that the default application's webhook URL, secrets and deliveries stay as they were; given --token, it works with
// that token only (in the token's application) and enrolls nobody.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A problem of the setup, not of the contract: the command exits 2 with its message. */
export class SetupError extends Error {}

export type Server = {
  baseUrl: string;
  /** Started by this run: its logged errors are known, and it can reach a webhook receiver on this machine. */
  startedHere: boolean;
  /** Unexpected errors the server logged (only known for a server started here). */
  serverErrors: string[];
  close(): Promise<void>;
};

export type Enrollment = { token: string; accounts: { id: string; name: string; subtype: string; status: string; links?: Record<string, string> }[] };

export type Sandbox = {
  mode: 'own-application' | 'token';
  /** The key of the run's own application (HTTP Basic username of `POST /sandbox/enrollments`). */
  applicationKey?: string;
  /** Whether fresh sandbox users can be enrolled (suites that need particular users run only then). */
  enrolls: boolean;
  /** A token of a healthy user (`username`): a fresh enrollment in the run's application, or the given token. */
  token(): Promise<string>;
  enroll(username: string): Promise<Enrollment>;
  /** Stops the run's application from sending more deliveries (its webhook URL back to none). */
  close(): Promise<void>;
};

const basic = (credential: string) => `Basic ${btoa(`${credential}:`)}`;

/** Starts this repository's server (when installed) on 127.0.0.1 and a free port, on a fresh SQLite file or `databaseUrl`. */
export async function startLocalServer(databaseUrl?: string): Promise<Server> {
  let server: typeof import('@aggregation/server');
  try {
    server = await import('@aggregation/server');
  } catch (error) {
    // A server that cannot load here (such as on a Node.js it does not support) is a setup problem too.
    if ((error as NodeJS.ErrnoException).code !== 'ERR_MODULE_NOT_FOUND')
      throw new SetupError(`@aggregation/server cannot start here: ${(error as Error).message} Pass --base-url <url> of a server running elsewhere.`);
    throw new SetupError(
      'no --base-url given, and @aggregation/server (which this command starts when no server is named) is not installed: ' +
        'pass --base-url <url> of the server to check, or install @aggregation/server beside this package',
    );
  }
  const dir = await mkdtemp(join(tmpdir(), 'contract-tests-'));
  const serverErrors: string[] = [];
  const running = await server.startServer({
    port: 0,
    hostname: '127.0.0.1',
    ...(databaseUrl ? { databaseUrl } : { databasePath: join(dir, 'sandbox.sqlite') }),
    logError: (error) => void serverErrors.push(error instanceof Error ? (error.stack ?? error.message) : String(error)),
  });
  return {
    baseUrl: running.url,
    startedHere: true,
    serverErrors,
    async close() {
      await running.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** A server elsewhere: checks that it answers at all (a setup problem otherwise). */
export async function externalServer(baseUrl: string): Promise<Server> {
  const url = baseUrl.replace(/\/+$/, '');
  try {
    const probe = await fetch(`${url}/`, { signal: AbortSignal.timeout(30_000) });
    await probe.body?.cancel();
  } catch (error) {
    throw new SetupError(`cannot reach ${url}: ${(error as Error & { cause?: Error }).cause?.message ?? (error as Error).message}`);
  }
  return { baseUrl: url, startedHere: false, serverErrors: [], close: async () => {} };
}

async function post(url: string, body: unknown, credential: string | undefined, attempts = 2): Promise<Response> {
  try {
    return await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(credential ? { authorization: basic(credential) } : {}) },
      body: JSON.stringify(body),
    });
  } catch (error) {
    // A kept-alive connection the server closes just as a request leaves on it fails that request, and fetch retries
    // no POST: send it again (one more sandbox application or enrollment is harmless).
    if (attempts > 1) return post(url, body, credential, attempts - 1);
    throw error;
  }
}

export async function enrollSandboxUser(baseUrl: string, username: string, applicationKey: string | undefined): Promise<Enrollment> {
  const response = await post(`${baseUrl}/sandbox/enrollments`, { username, password: 'password' }, applicationKey);
  if (response.status !== 201) throw new Error(`POST /sandbox/enrollments (${username}) answered ${response.status}: ${await response.text()}`);
  const body = (await response.json()) as { access_token: string; accounts: Enrollment['accounts'] };
  return { token: body.access_token, accounts: body.accounts };
}

/** The sandbox the run works in: an application of its own, or the given token's. */
export async function openSandbox(baseUrl: string, token: string | undefined, application: { default_version?: string } = {}): Promise<Sandbox> {
  if (token) {
    return {
      mode: 'token',
      enrolls: false,
      token: async () => token,
      enroll: () => Promise.reject(new Error('with --token the run enrolls no sandbox user')),
      close: async () => {},
    };
  }
  const created = await post(`${baseUrl}/sandbox/applications`, application, undefined);
  if (created.status !== 201) {
    const text = (await created.text()).slice(0, 300);
    throw new SetupError(
      created.status === 404 || created.status === 405
        ? `${baseUrl} has no sandbox control API (POST /sandbox/applications answered ${created.status}): pass a sandbox token with --token`
        : `${baseUrl} refused to create the run's sandbox application (POST /sandbox/applications answered ${created.status}: ${text}); pass a sandbox token with --token instead`,
    );
  }
  const { key } = (await created.json()) as { key: string };
  const tokens: string[] = [];
  const enroll = async (username: string) => {
    const enrollment = await enrollSandboxUser(baseUrl, username, key);
    tokens.push(enrollment.token);
    return enrollment;
  };
  return {
    mode: 'own-application',
    applicationKey: key,
    enrolls: true,
    token: async () => (await enroll('username')).token,
    enroll,
    async close() {
      // Any token of the application changes its settings; the first one may have been revoked by a removal.
      for (const owned of tokens) {
        const response = await fetch(`${baseUrl}/sandbox/webhook`, {
          method: 'PUT',
          headers: { 'content-type': 'application/json', authorization: basic(owned) },
          body: JSON.stringify({ url: null }),
        }).catch(() => undefined);
        await response?.body?.cancel();
        if (response?.ok) return;
      }
    },
  };
}
