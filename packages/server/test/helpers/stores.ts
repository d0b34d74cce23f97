// The stores a suite runs against: SQLite always, PostgreSQL when a server can be had (see
// postgres.ts). A suite loops over them; PostgreSQL's is skipped with the reason when absent.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, test } from 'vitest';
import type { StorageOptions } from '../../src/index.ts';
import { type Outage, type TestPostgresOptions, testPostgres } from './postgres.ts';

export interface StoreKind {
  name: 'sqlite' | 'postgres';
  skip: string | false;
  /**
   * Where a fresh, empty database is, as `openStore` options; `durable` asks for one that a
   * second store or a restart can open again (SQLite: a file rather than memory) and whose
   * commits survive a crash of the database server (PostgreSQL: synchronous_commit on).
   */
  location(durable?: boolean): Promise<StorageOptions>;
  /** The PostgreSQL server's outages and crashes, when it is this suite's own throwaway cluster. */
  outage?: Outage;
}

/** As `createApp` options. */
export const appOptions = (location: StorageOptions) => ({ databasePath: location.path, databaseUrl: location.url });

/** Both kinds; what they made is removed after the file's tests. `ownCluster` as for `testPostgres`. */
export async function storeKinds(options: TestPostgresOptions = {}): Promise<StoreKind[]> {
  const postgres = await testPostgres(options);
  let dir: string | undefined;
  afterAll(async () => {
    await postgres.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });
  let files = 0;
  return [
    {
      name: 'sqlite',
      skip: false,
      location: async (durable = false) => {
        if (!durable) return { path: ':memory:' };
        dir ??= mkdtempSync(join(tmpdir(), 'server-sqlite-'));
        return { path: join(dir, `store-${++files}.sqlite`) };
      },
    },
    {
      name: 'postgres',
      skip: postgres.skip,
      location: async (durable = false) => ({ url: await postgres.database(durable) }),
      ...(postgres.outage ? { outage: postgres.outage } : {}),
    },
  ];
}

/**
 * `describe`, unless the suite cannot run here: then one skipped test stands in for it, with the
 * reason, so that the skip shows once in the runner's totals and the suite's body, which may need
 * the database to collect its tests, never runs.
 */
export function describeUnless(skip: string | false, name: string, body: () => void): void {
  if (skip) describe(name, () => test.skipIf(skip)('needs PostgreSQL', () => undefined));
  else describe(name, body);
}
