// PostgreSQL for the bench: the server tests' helper (TEST_DATABASE_URL or DATABASE_URL, otherwise a throwaway
// cluster started with the machine's initdb and pg_ctl), and the CPU time of a local cluster's processes, which
// is spent for the server under test but outside its process.
import { readdirSync, readFileSync } from 'node:fs';
import { childPids, readChildrenCpuSeconds, readCpuSeconds } from '@aggregation/test-support';
import { type TestPostgres, testPostgres } from '../../packages/server/test/helpers/postgres.ts';

/** A PostgreSQL server to make databases on, or why there is none (the helper throws instead with CI=true). */
export async function benchPostgres(): Promise<{ postgres: TestPostgres } | { skip: string }> {
  try {
    const postgres = await testPostgres({ ownCluster: true });
    return postgres.skip ? { skip: postgres.skip } : { postgres };
  } catch (error) {
    return { skip: (error as Error).message };
  }
}

/**
 * CPU seconds so far of the cluster serving `url` (its postmaster and every process it started, those that ended
 * too), or NaN when it is not a local cluster found by its port in /proc.
 */
export function clusterCpu(url: string): () => number {
  const { hostname, port } = new URL(url);
  const postmaster = ['127.0.0.1', 'localhost'].includes(hostname) ? findPostmaster(port || '5432') : undefined;
  if (postmaster === undefined) return () => Number.NaN;
  // A session that ends (a pool closing an idle connection) leaves the sum of the live processes; the postmaster,
  // which waits for it, counts its CPU among its ended children's from then on.
  return () => readChildrenCpuSeconds(postmaster) + [postmaster, ...childPids(postmaster)].reduce((sum, pid) => sum + readCpuSeconds(pid), 0);
}

function findPostmaster(port: string): number | undefined {
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const argv = readFileSync(`/proc/${name}/cmdline`, 'utf8').split('\0');
      if (argv[0]?.endsWith('/postgres') && argv.join(' ').includes(`-p ${port}`)) return Number(name);
    } catch {
      // A process that has gone meanwhile.
    }
  }
  return undefined;
}
