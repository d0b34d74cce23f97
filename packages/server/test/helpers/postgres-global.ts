// vitest globalSetup: one throwaway PostgreSQL cluster for the whole run, rather than one per test file (an initdb
// and a server start each). Files get fresh databases on it through `testPostgres()`; a file that stops or crashes
// the server asks for its own cluster. When no cluster can start here, nothing is provided and each file finds out
// why for itself, skipping or failing as `testPostgres()` always did.
import type { TestProject } from 'vitest/node';
import { SHARED_CLUSTER_KEY, startPrivateCluster } from './postgres.ts';

export default async function setup(project: TestProject): Promise<() => void> {
  if (process.env.TEST_DATABASE_URL || process.env.DATABASE_URL) return () => undefined;
  const started = await startPrivateCluster();
  if (!('cluster' in started)) return () => undefined;
  project.provide(SHARED_CLUSTER_KEY, started.cluster.url);
  return () => started.cluster.stop();
}
