export interface TestPostgres {
  /** Why PostgreSQL tests cannot run here; false when they can. */
  skip: string | false;
  /** URL of a new, empty database. */
  database(): Promise<string>;
  /** Drops the databases made here and stops the private cluster, if one was started. */
  stop(): Promise<void>;
  /**
   * Stops the private cluster's server for an outage (`start()` brings it back on the same port and data);
   * undefined when the server is not ours to stop (TEST_DATABASE_URL, DATABASE_URL).
   */
  outage?: {
    stop(): void;
    start(): void;
  };
}
/** Directory holding initdb and pg_ctl: `pg_config --bindir`, Debian's versioned dirs (newest first), then PATH. */
export declare function findPostgresBin(): string | undefined;
export declare function testPostgres(): Promise<TestPostgres>;
//# sourceMappingURL=postgres.d.ts.map
