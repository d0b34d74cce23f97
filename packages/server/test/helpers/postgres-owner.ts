// A test process that owns a private PostgreSQL cluster and waits to be ended, for the cleanup tests: it prints the
// cluster's folder once the cluster is up.
import { testPostgres } from './postgres.ts';

const postgres = await testPostgres({ ownCluster: true });
if (postgres.skip || !postgres.clusterDir) throw new Error(`no private cluster: ${postgres.skip}`);
console.log(`cluster ${postgres.clusterDir}`);
setInterval(() => undefined, 60_000);
