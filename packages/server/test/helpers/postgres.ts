// A PostgreSQL server for tests. TEST_DATABASE_URL (or DATABASE_URL) names one to use;
// otherwise a private throwaway cluster is made with the machine's initdb and pg_ctl (run as
// the `postgres` user when we are root, since initdb refuses root), on a free port with its
// Unix socket in its temp dir, and stopped at the end: by `stop()`, and when the test process exits or is
// ended by a signal. Under vitest, one such cluster serves the whole run (`postgres-global.ts` starts it and
// provides its URL); a file that stops or crashes its server asks for a cluster of its own. Its dir records the owning process; a cluster whose owner was killed outright (SIGKILL
// runs no handler) is stopped and removed by the next start of one. Each `database()` is a fresh database,
// dropped by `stop()`. Without PostgreSQL the tests that need it skip with the reason, except
// with CI=true, where they fail.
import { execFileSync, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '@aggregation/mock';
import { ownerGone, ownerMark, skipWhenMissing, stopOnExit } from '@aggregation/test-support';
import pg from 'pg';
import { HANG_GUARD_MS } from '../../../../vitest.shared.ts';

export interface TestPostgres {
  /** Why PostgreSQL tests cannot run here; false when they can. */
  skip: string | false;
  /**
   * URL of a new, empty database. `durable`: its commits survive a crash of the database server
   * (synchronous_commit on; the throwaway cluster turns it off for speed).
   */
  database(durable?: boolean): Promise<string>;
  /** Drops the databases made here and stops the private cluster, if one was started. */
  stop(): Promise<void>;
  /** The private cluster's folder (its data, socket, log and owner file); undefined when the server is not ours. */
  clusterDir?: string;
  /**
   * Stops the private cluster's server for an outage (`start()` brings it back on the same port and data);
   * undefined when the server is not ours to stop (TEST_DATABASE_URL, DATABASE_URL).
   */
  outage?: Outage;
}

export interface Outage {
  /** Fast shutdown: sessions are cut, as when the database host goes away. */
  stop(): void;
  start(): void;
  /** `kill -9` of the postmaster, as an OOM kill: no shutdown, its backends left to notice; resolves once it is gone. */
  crash(): Promise<void>;
  /** Starts it again after a crash, recovering from the write-ahead log, as soon as the old backends let it. */
  restart(): Promise<void>;
}

const INSTALL_HINT = 'install PostgreSQL (Debian: apt-get install -y postgresql) or set TEST_DATABASE_URL';

/** pg_ctl waits for the server to start or stop as long as a loaded machine takes (its default gives up after 60 s). */
const pgCtlWait = ['-w', '-t', String(HANG_GUARD_MS / 1000)];

/** Directory holding initdb and pg_ctl: `pg_config --bindir`, Debian's versioned dirs (newest first), then PATH. */
export function findPostgresBin(): string | undefined {
  const candidates: string[] = [];
  const config = spawnSync('pg_config', ['--bindir'], { encoding: 'utf8' });
  if (config.status === 0) candidates.push(config.stdout.trim());
  const debian = '/usr/lib/postgresql';
  if (existsSync(debian)) {
    const versions = readdirSync(debian)
      .filter((name) => /^\d+$/.test(name))
      .sort((a, b) => Number(b) - Number(a));
    candidates.push(...versions.map((version) => join(debian, version, 'bin')));
  }
  candidates.push(...(process.env.PATH ?? '').split(':').filter(Boolean));
  return candidates.find((dir) => existsSync(join(dir, 'initdb')) && existsSync(join(dir, 'pg_ctl')) && existsSync(join(dir, 'postgres')));
}

function unavailable(reason: string): TestPostgres {
  const message = `PostgreSQL is not available (${reason}): ${INSTALL_HINT}`;
  return {
    skip: skipWhenMissing('the PostgreSQL tests', message),
    database: () => Promise.reject(new Error(message)),
    stop: async () => undefined,
  };
}

/** Runs the cluster's programs as `postgres` when we are root. */
function asOwner(command: string, args: string[]): [string, string[]] {
  return process.getuid?.() === 0 ? ['runuser', ['-u', 'postgres', '--', command, ...args]] : [command, args];
}

export interface Cluster {
  url: string;
  dir: string;
  stop(): void;
  outage: Outage;
}

const CLUSTER_PREFIX = 'server-pg-';
/** The file in a cluster's folder naming the process that owns it (`ownerMark`). */
const OWNER_FILE = 'owner';

function runAsOwner(bin: string, program: string, args: string[]): void {
  const [command, argv] = asOwner(join(bin, program), args);
  execFileSync(command, argv, { stdio: 'pipe' });
}

/** Removes a cluster's folder until it is gone: a postgres process still exiting may write into it while it is
 * removed, and a removal that meets a file made meanwhile can leave the folder behind without an error. */
function removeFolder(dir: string): void {
  for (let attempt = 0; existsSync(dir) && attempt < 20; attempt++) {
    if (attempt > 0) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 50);
    rmSync(dir, { recursive: true, force: true, maxRetries: 3 });
  }
}

/** Stops and removes the clusters whose owning test process is gone without stopping them (killed by SIGKILL). */
export function sweepAbandonedClusters(bin: string): string[] {
  const swept: string[] = [];
  for (const name of readdirSync(tmpdir())) {
    if (!name.startsWith(CLUSTER_PREFIX)) continue;
    const dir = join(tmpdir(), name);
    let owner: string;
    try {
      owner = readFileSync(join(dir, OWNER_FILE), 'utf8');
    } catch {
      continue; // Not marked: being made right now, or not made by this helper.
    }
    if (!ownerGone(owner)) continue;
    if (existsSync(join(dir, 'data', 'postmaster.pid'))) {
      try {
        runAsOwner(bin, 'pg_ctl', ['stop', '-D', join(dir, 'data'), '-m', 'immediate', ...pgCtlWait]);
      } catch {
        // Not running any more.
      }
    }
    removeFolder(dir);
    swept.push(dir);
  }
  return swept;
}

async function startCluster(bin: string): Promise<Cluster> {
  sweepAbandonedClusters(bin);
  const dir = mkdtempSync(join(tmpdir(), CLUSTER_PREFIX));
  writeFileSync(join(dir, OWNER_FILE), ownerMark());
  if (process.getuid?.() === 0) {
    const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim());
    chownSync(dir, uid, gid);
  }
  const data = join(dir, 'data');
  const log = join(dir, 'postgres.log');
  const run = (program: string, args: string[]) => runAsOwner(bin, program, args);
  let started = false;
  let forget: () => void = () => undefined;
  const stop = () => {
    forget();
    if (started) {
      started = false;
      try {
        run('pg_ctl', ['stop', '-D', data, '-m', 'immediate', ...pgCtlWait]);
      } catch {
        // Already gone.
      }
    }
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    // Throwaway: no fsync, trust authentication on the socket and localhost only.
    run('initdb', ['-D', data, '-U', 'postgres', '-A', 'trust', '-E', 'UTF8', '--no-sync', '--no-instructions']);
    const port = await freePort();
    const settings = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off`;
    const startOnce = () => run('pg_ctl', ['start', '-D', data, '-l', log, ...pgCtlWait, '-o', settings]);
    startOnce();
    started = true;
    // A test process that exits or is ended by a signal without stop() must not leave a server behind.
    forget = stopOnExit(stop);
    const outage: Outage = {
      stop: () => run('pg_ctl', ['stop', '-D', data, '-m', 'fast', ...pgCtlWait]),
      start: startOnce,
      crash: async () => {
        const pid = Number(readFileSync(join(data, 'postmaster.pid'), 'utf8').split('\n')[0]);
        process.kill(pid, 'SIGKILL');
        while (isRunning(pid)) await new Promise((resolve) => setTimeout(resolve, 20));
      },
      // The orphaned backends hold the shared memory until they notice the postmaster is gone: a start fails till then,
      // however long a loaded machine takes them.
      restart: async () => {
        for (;;) {
          try {
            return startOnce();
          } catch {
            await new Promise((resolve) => setTimeout(resolve, 200));
          }
        }
      },
    };
    return { url: `postgres://postgres@127.0.0.1:${port}/postgres`, dir, stop, outage };
  } catch (error) {
    const output = existsSync(log) ? readFileSync(log, 'utf8').slice(-2000) : '';
    stop();
    const stderr = (error as { stderr?: Buffer }).stderr?.toString().trim();
    throw new Error(`${stderr || (error as Error).message}${output ? `\n${output}` : ''}`, { cause: error });
  }
}

/** Whether `pid` runs (a zombie waiting to be reaped does not). */
function isRunning(pid: number): boolean {
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}

const withDatabase = (url: string, name: string): string => {
  const parsed = new URL(url);
  parsed.pathname = `/${name}`;
  return parsed.toString();
};

export interface TestPostgresOptions {
  /** A private cluster for this process alone, never the run's shared one: for outages, crashes and its folder. */
  ownCluster?: boolean;
}

/** The name under which the run's shared cluster's URL is provided to test files. */
export const SHARED_CLUSTER_KEY = 'sharedPostgresUrl';

declare module 'vitest' {
  export interface ProvidedContext {
    [SHARED_CLUSTER_KEY]: string | undefined;
  }
}

/** The run's shared cluster (see `postgres-global.ts`), when this is a vitest run whose setup started one. */
export async function sharedClusterUrl(): Promise<string | undefined> {
  // Imported here, not above: the contract tests' store script, the bench and the cleanup tests' owner process load
  // this module outside vitest, where there is no shared cluster and `inject` throws (as it does in their children).
  const { inject } = await import('vitest');
  try {
    return inject(SHARED_CLUSTER_KEY);
  } catch {
    return undefined;
  }
}

/** Starts a private cluster, or says why none can start here. */
export async function startPrivateCluster(): Promise<{ cluster: Cluster } | { failed: string }> {
  const bin = findPostgresBin();
  if (!bin) return { failed: 'no initdb, pg_ctl and postgres in pg_config --bindir, /usr/lib/postgresql/*/bin or PATH' };
  try {
    return { cluster: await startCluster(bin) };
  } catch (error) {
    return { failed: `a private cluster did not start: ${(error as Error).message}` };
  }
}

export async function testPostgres(options: TestPostgresOptions = {}): Promise<TestPostgres> {
  let serverUrl = process.env.TEST_DATABASE_URL || process.env.DATABASE_URL;
  if (!serverUrl && !options.ownCluster) serverUrl = await sharedClusterUrl();
  let cluster: Cluster | undefined;
  if (!serverUrl) {
    const started = await startPrivateCluster();
    if ('failed' in started) return unavailable(started.failed);
    cluster = started.cluster;
    serverUrl = cluster.url;
  }
  const admin = new pg.Pool({ connectionString: serverUrl, max: 1 });
  admin.on('error', () => undefined);
  try {
    await admin.query('SELECT 1');
  } catch (error) {
    await admin.end();
    cluster?.stop();
    return unavailable(`cannot connect to ${serverUrl.replace(/:[^:@/]*@/, ':***@')}: ${(error as Error).message}`);
  }
  const made: string[] = [];
  return {
    skip: false,
    ...(cluster ? { outage: cluster.outage, clusterDir: cluster.dir } : {}),
    async database(durable = false) {
      const name = `test_${randomBytes(6).toString('hex')}`;
      await admin.query(`CREATE DATABASE ${name}`);
      if (durable) await admin.query(`ALTER DATABASE ${name} SET synchronous_commit = on`);
      made.push(name);
      return withDatabase(serverUrl, name);
    },
    async stop() {
      for (const name of made.splice(0)) await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.end();
      cluster?.stop();
    },
  };
}
